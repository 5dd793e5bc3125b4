import {readFile} from 'node:fs/promises'

import {type BackendProbe, probeMechanism, type ProbeContext} from './backends.js'
import {chooseEnforcement, type Enforcement, type IsolationMode, MECHANISM_ENV, type Mechanism} from './isolation.js'
import {mountPlan, type MountPlan, type Roots} from './mount-plan.js'
import {bwrapArgs, mountPoints, unshareArgs} from './wrappers.js'

export interface BackendStatus extends BackendProbe {
  /** False when no trial run was made (not Linux, or another mechanism was forced). */
  probed: boolean
}

/** How commands are confined here, decided by trial runs of the real arguments. */
export interface Confinement {
  enforcement: Enforcement
  bubblewrap: BackendStatus
  unshare: BackendStatus
}

/** Turns the argv a tool would run in `cwd` into the argv to spawn (see ToolContext.wrapCommand). */
export type CommandWrapper = (argv: string[], cwd: string) => string[]

export interface ConfinementSetup {
  mode: IsolationMode
  roots: Roots
  network: boolean
  /** Where trial runs start: the workspace. */
  workspace: string
  mechanisms: readonly Mechanism[]
  platform: NodeJS.Platform
  /** unshare needs a user namespace to mount unless it runs as root. */
  userNamespace: boolean
  context: ProbeContext
}

/**
 * Makes one trial run of each mechanism to try, with the arguments real runs get and `true` as
 * the command, and picks the first that works (with mode off, none is needed, but the trials
 * still say what is there). Nothing is created for a trial: missing directories are left out.
 */
export async function trialConfinement(setup: ConfinementSetup): Promise<Confinement> {
  if (setup.platform !== 'linux') {
    const notLinux: BackendStatus = {probed: false, reason: `${setup.platform}: Linux only`, works: false}
    return {bubblewrap: notLinux, enforcement: chooseEnforcement(setup.mode, {bwrap: false, unshare: false}), unshare: notLinux}
  }

  const plan = await mountPlan(setup.roots, setup.network, {createMissing: false})
  const mounts = await currentMounts()
  const trial = (mechanism: Mechanism): Promise<BackendStatus> => {
    if (!setup.mechanisms.includes(mechanism)) {
      const forced = setup.context.env[MECHANISM_ENV]
      return Promise.resolve({probed: false, reason: forced ? `not tried: ${MECHANISM_ENV}=${forced}` : 'not tried', works: false})
    }

    const args = argsFor(mechanism, plan, mounts, ['true'], setup.workspace, setup)
    return probeMechanism(mechanism, args, setup.context).then((probe) => ({...probe, probed: true}))
  }

  const [bubblewrap, unshare] = await Promise.all([trial('bwrap'), trial('unshare')])
  return {bubblewrap, enforcement: chooseEnforcement(setup.mode, {bwrap: bubblewrap.works, unshare: unshare.works}), unshare}
}

/**
 * The wrapper for the next command, from the binds as they are now (a protected directory made
 * since the trial is protected too), or undefined when commands run unconfined.
 */
export async function wrapperFor(confinement: Confinement, setup: ConfinementSetup): Promise<CommandWrapper | undefined> {
  const {enforcement} = confinement
  if (enforcement !== 'bwrap' && enforcement !== 'unshare') return undefined
  const binary = (enforcement === 'bwrap' ? confinement.bubblewrap : confinement.unshare).path!
  const plan = await mountPlan(setup.roots, setup.network, {createMissing: true})
  const mounts = enforcement === 'unshare' ? await currentMounts() : []
  return (argv, cwd) => [binary, ...argsFor(enforcement, plan, mounts, argv, cwd, setup)]
}

function argsFor(mechanism: Mechanism, plan: MountPlan, mounts: string[], argv: string[], cwd: string, setup: ConfinementSetup): string[] {
  return mechanism === 'bwrap' ? bwrapArgs(plan, argv, cwd) : unshareArgs(plan, mounts, argv, cwd, {userNamespace: setup.userNamespace})
}

async function currentMounts(): Promise<string[]> {
  return mountPoints(await readFile('/proc/self/mountinfo', 'utf8'))
}

import {readFile} from 'node:fs/promises'

import {type BackendProbe, probeMechanism, type ProbeContext} from './backends.js'
import {chooseEnforcement, type Enforcement, type IsolationMode, MECHANISM_ENV, type Mechanism} from './isolation.js'
import {existing, mountPlan, type MountPlan, type Roots} from './mount-plan.js'
import {commandGuards, sweepAfter} from './project-guards.js'
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

/** One command's confinement. */
export interface ConfinedCommand {
  wrap: CommandWrapper
  /** Where it may write (the roots, and the git directory of a linked worktree or submodule). */
  writable: string[]
  /**
   * Call once the command has ended: removes what it made where git or hanzo-dev would read it
   * (project-guards.ts) and says what, relative to the workspace.
   */
  finish(): Promise<string[]>
}

export interface ConfinementSetup {
  mode: IsolationMode
  roots: Roots
  network: boolean
  /** Where trial runs start: the workspace. */
  workspace: string
  /** Whose `~/.gitconfig` is protected when a writable root holds it. */
  homedir: string
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
    return {
      bubblewrap: notLinux,
      enforcement: chooseEnforcement(setup.mode, {bwrap: false, unshare: false}),
      unshare: notLinux,
    }
  }

  const plan = await mountPlan(setup.roots, setup.network)
  const mounts = await currentMounts()
  const trial = (mechanism: Mechanism): Promise<BackendStatus> => {
    if (!setup.mechanisms.includes(mechanism)) {
      const forced = setup.context.env[MECHANISM_ENV]
      return Promise.resolve({
        probed: false,
        reason: forced ? `not tried: ${MECHANISM_ENV}=${forced}` : 'not tried',
        works: false,
      })
    }

    const args = argsFor(mechanism, plan, mounts, ['true'], setup.workspace, setup)
    return probeMechanism(mechanism, args, setup.context).then((probe) => ({...probe, probed: true}))
  }

  const [bubblewrap, unshare] = await Promise.all([trial('bwrap'), trial('unshare')])
  return {
    bubblewrap,
    enforcement: chooseEnforcement(setup.mode, {bwrap: bubblewrap.works, unshare: unshare.works}),
    unshare,
  }
}

/**
 * The confinement of the next command, from the binds and the project as they are now (a
 * `.hanzo` or a repository made since the last command is protected too), or undefined when
 * commands run unconfined.
 */
export async function confineCommand(
  confinement: Confinement,
  setup: ConfinementSetup,
): Promise<ConfinedCommand | undefined> {
  const {enforcement} = confinement
  if (enforcement !== 'bwrap' && enforcement !== 'unshare') return undefined
  const binary = (enforcement === 'bwrap' ? confinement.bubblewrap : confinement.unshare).path!
  const {env} = setup.context
  const [workspace] = setup.roots.readable
  const writable = await existing(setup.roots.writable)
  const guards = await commandGuards({env, homedir: setup.homedir, workspace, writable})
  const plan = await mountPlan(setup.roots, setup.network, guards)
  const mounts = enforcement === 'unshare' ? await currentMounts() : []
  return {
    finish: () => sweepAfter(guards, env),
    wrap: (argv, cwd) => [binary, ...argsFor(enforcement, plan, mounts, argv, cwd, setup)],
    writable: plan.writable,
  }
}

function argsFor(
  mechanism: Mechanism,
  plan: MountPlan,
  mounts: string[],
  argv: string[],
  cwd: string,
  setup: ConfinementSetup,
): string[] {
  return mechanism === 'bwrap'
    ? bwrapArgs(plan, argv, cwd)
    : unshareArgs(plan, mounts, argv, cwd, {userNamespace: setup.userNamespace})
}

async function currentMounts(): Promise<string[]> {
  return mountPoints(await readFile('/proc/self/mountinfo', 'utf8'))
}

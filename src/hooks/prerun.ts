import type {Hook} from '@oclif/core'
import {Command} from '@oclif/core/command'

import {installCommandErrors} from '../cli/user-facing-error.js'

/**
 * oclif's `prerun` hook, before any command runs: its errors shown as ours are, a plugin
 * command's too. Here rather than at start-up, so `--help` never loads oclif's Command; by now
 * the command's module has loaded it.
 */
const hook: Hook.Prerun = async function () {
  installCommandErrors(Command)
}

export default hook

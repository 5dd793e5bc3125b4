import {failOnUserError, type Host, loadHost} from '@hanzo-dev/sdk'
import type {Command} from '@oclif/core/command'

/** The running hanzo-dev's {@link Host}; one that cannot serve this plugin is the command's clear error, not a crash. */
export async function agentHost(command: Pick<Command, 'config' | 'error'>): Promise<Host> {
  try {
    return await loadHost(command.config)
  } catch (error) {
    return failOnUserError(command, error)
  }
}

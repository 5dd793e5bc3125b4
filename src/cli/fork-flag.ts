import * as Flags from '@oclif/core/flags'

/** `--fork-session`, the same on every command that carries on a saved session. */
export const forkSessionFlag = Flags.boolean({
  description:
    'With --resume or --continue: start a new session from a copy of that conversation; the saved one is left as it is.',
})

import type {PermissionPrompter} from '../../core/agent/types.js'
import {NonInteractivePrompter} from './non-interactive-prompter.js'
import {TtyPrompter, type TtyPrompterOptions} from './tty-prompter.js'

export {NonInteractivePrompter} from './non-interactive-prompter.js'
export {type TerminalStreams, TtyPrompter, type TtyPrompterOptions} from './tty-prompter.js'

/** The terminal prompter when someone can answer (stdin is a TTY), else one that denies and says how to allow. */
export function createPrompter(options: {interactive: boolean} & TtyPrompterOptions): PermissionPrompter {
  const {interactive, ...terminal} = options
  return interactive ? new TtyPrompter(terminal) : new NonInteractivePrompter()
}

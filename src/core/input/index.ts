export {parseKeys} from './key-notation.js'
export {expirePending, VimInput, vimKey} from './vim.js'
export {
  createVimState,
  DEFAULT_VIM_OPTIONS,
  type Register,
  type VimEffect,
  type VimMode,
  type VimOptions,
  type VimResult,
  type VimState,
  withBuffer,
} from './vim-state.js'

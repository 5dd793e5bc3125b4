export {knownLanguage} from './highlight.js'
export {MdRenderer} from './renderer.js'
export type {SpanStyle, StyledSpan} from './types.js'

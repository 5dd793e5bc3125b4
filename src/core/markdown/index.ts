export {knownLanguage} from './highlight.js'
export {MdRenderer} from './renderer.js'
export {wrapPlain, wrapSpans} from './wrap.js'
export type {SpanStyle, StyledSpan} from './types.js'

export {openAgentSession, type OpenAgentSessionOptions} from './open.js'
export {DEFAULT_RUN_MAX_TURNS} from './session.js'
export {backgroundOf, skillsOf, subagentsOf} from './session-accessors.js'

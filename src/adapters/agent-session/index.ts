export {openAgentSession, type OpenAgentSessionOptions} from './open.js'
export {backgroundOf, DEFAULT_RUN_MAX_TURNS, skillsOf, subagentsOf} from './session.js'

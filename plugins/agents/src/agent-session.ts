/**
 * The core's session API (`openAgentSession`, reached through the Host port) under the names
 * the agent stages use. The stages take any such session: the CLI's, and the interactive
 * session's for `/plan`, `/solve`, `/code`, `/auto`.
 */
export type {
  AgentEvent as StageEvent,
  AgentRunResult as StageRunResult,
  AgentSession as AgentSessionLike,
  AgentSessionOptions as OpenSessionOptions,
} from '@hanzo-dev/sdk'

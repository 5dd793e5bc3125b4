// The library API: the core without the CLI. The CLI uses these same modules.
import {readTracingEnvironmentFrom} from './core/tracing/provider.js'

export * from '@hanzo-dev/sdk'
export {collectContributions, collectDoctorReports} from './adapters/plugin-host.js'
export {nodeConfigIO} from './adapters/config-io.js'
export {hostInput, loadHostContext} from './adapters/host-context.js'
export {openAgentSession, type OpenAgentSessionOptions} from './adapters/agent-session/index.js'
export {FileTrustStore, keepingTrust, type TrustedProject, trustStorePath} from './adapters/trust-store.js'
export * from './core/config/index.js'
export {AgentRunError} from './core/errors.js'
export * from './core/paths.js'
export * from './core/protocol/index.js'
export * from './core/agent/index.js'
export * from './core/tools/index.js'
export * from './core/permissions/index.js'
export * from './core/tracing/index.js'
export {
  BackendSpanExporter,
  type BackendSpanExporterOptions,
  CLI_TRACING_SHUTDOWN_MS,
  type CliTracing,
  configureCliTracing,
} from './adapters/tracing-exporter.js'
export {createOpenAIClient, type OpenAIClientOptions} from './adapters/api/openai-client.js'
export {type AnthropicClientOptions, createAnthropicClient} from './adapters/api/anthropic-client.js'
export {SessionStore} from './adapters/session-store.js'
export {SessionRecorder} from './core/sessions/recorder.js'
export {AuditLog, auditLogPath} from './adapters/audit-log.js'
export {createPrompter} from './adapters/prompt/index.js'
export {builtinTools} from './adapters/tools/index.js'
export * from './core/auth/index.js'
export {startLoopbackReceiver, type LoopbackReceiver} from './adapters/auth/loopback-receiver.js'
export {FileCredentialStore} from './adapters/credentials/file-store.js'
export {KeychainCredentialStore, type KeyringEntry, type KeyringModule} from './adapters/credentials/keychain-store.js'
export {
  openCredentialStore,
  type CredentialBackend,
  type OpenCredentialStoreOptions,
  type OpenedCredentialStore,
} from './adapters/credentials/open-store.js'
export {writeFileAtomic} from './adapters/atomic-write.js'

// HANZO_TRACING_DISABLED is the library's switch too (hanzo-agent's contract): read from this process.
readTracingEnvironmentFrom(() => process.env)

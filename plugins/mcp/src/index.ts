export {mcpChecks} from './doctor-checks.js'
export {default as doctor} from './hooks/doctor.js'
export {
  type McpServerEntry,
  type McpTransport,
  type ParsedServer,
  type ParsedServers,
  parseMcpServers,
} from './server-config.js'
export {redactServerUrl as displayUrl} from '@hanzo-dev/sdk/settings'

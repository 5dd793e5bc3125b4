// The MCP conformance suite's client under test: hanzo-dev's own McpConnection (the built
// plugin), run as `node conformance-client.mjs <server-url>` by `conformance client`. The suite
// passes a scenario's pre-registered client in MCP_CONFORMANCE_CONTEXT; authorization runs
// headlessly (headless-auth.ts): the suite's authorization server approves at once. A
// client_credentials scenario is configured as a user would (`oauth.grant`); private_key_jwt
// has no setting, so the SDK's provider for it is passed in.
import {PrivateKeyJwtProvider} from '@modelcontextprotocol/sdk/client/auth-extensions.js'

import {clientRequests} from '../dist/client-requests.js'
import {McpConnection} from '../dist/connection.js'
import {HeadlessOAuthProvider} from '../dist/headless-auth.js'
import {enabledServers} from '../dist/server-config.js'

const ARGUMENTS = {add_numbers: {a: 2, b: 3}, test_client_elicitation_defaults: {}, test_reconnection: {}}
// A user who accepts a form as it comes: the fields left empty get the schema's defaults (SEP-1034).
const acceptAsIs = {elicit: async () => ({action: 'accept', content: {}})}
const [url] = process.argv.slice(-1)
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}')
const machine = process.env.MCP_CONFORMANCE_SCENARIO === 'auth/client-credentials-basic'

function authProvider() {
  if (context.private_key_pem)
    return new PrivateKeyJwtProvider({
      algorithm: context.signing_algorithm,
      clientId: context.client_id,
      privateKey: context.private_key_pem,
    })
  if (machine) return undefined
  return new HeadlessOAuthProvider(
    context.client_id ? {clientId: context.client_id, clientSecret: context.client_secret} : undefined,
  )
}

const connection = new McpConnection({
  authProvider: authProvider(),
  clientRequests: clientRequests(acceptAsIs, (message) => process.stderr.write(`${message}\n`)),
  cwd: process.cwd(),
  dataDir: process.env.TMPDIR ?? '/tmp',
  env: process.env,
  server: enabledServers({
    conformance: {
      startup_timeout_ms: 20_000,
      url,
      ...(machine
        ? {oauth: {client_id: context.client_id, client_secret: context.client_secret, grant: 'client_credentials'}}
        : {}),
    },
  }).servers[0],
})
try {
  for (const tool of await connection.tools()) await connection.callTool(tool.name, ARGUMENTS[tool.name] ?? {})
} finally {
  await connection.close()
}

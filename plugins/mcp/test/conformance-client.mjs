// The MCP conformance suite's client under test: hanzo-dev's own McpConnection (the built
// plugin), run as `node conformance-client.mjs <server-url>` by `conformance client`.
import {clientRequests} from '../dist/client-requests.js'
import {McpConnection} from '../dist/connection.js'

const ARGUMENTS = {add_numbers: {a: 2, b: 3}, test_client_elicitation_defaults: {}, test_reconnection: {}}
// A user who accepts a form as it comes: the fields left empty get the schema's defaults (SEP-1034).
const acceptAsIs = {elicit: async () => ({action: 'accept', content: {}})}
const [url] = process.argv.slice(-1)
const connection = new McpConnection({
  clientRequests: clientRequests(acceptAsIs, (message) => process.stderr.write(`${message}\n`)),
  cwd: process.cwd(),
  dataDir: process.env.TMPDIR ?? '/tmp',
  env: process.env,
  server: {
    disabled: false,
    name: 'conformance',
    startupTimeoutMs: 20_000,
    transport: {type: 'http', url: new URL(url)},
  },
})
try {
  for (const tool of await connection.tools()) {
    if (tool.name in ARGUMENTS) await connection.callTool(tool.name, ARGUMENTS[tool.name])
  }
} finally {
  await connection.close()
}

import * as Flags from '@oclif/core/flags'
import {printable} from '@hanzo-dev/sdk/terminal-text'

import {HanzoCommand} from '../cli/base-command.js'
import {UserError} from '../core/errors.js'
import type {AppServerLink} from '../server/bridge/app-client.js'

/** The app server's own limit on a POST /rpc body: a larger frame could never be delivered. */
const DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024

export default class Bridge extends HanzoCommand {
  static description = `Let a web UI or an IDE drive hanzo-dev over a WebSocket (HIP-301 §14).

The bridge sits in front of \`hanzo-dev app-server --listen\` on 127.0.0.1 (--app), or, without --app, runs the app server in its own process: one command for a web UI or an IDE on this machine. A WebSocket upgrade is accepted only from an Origin on the --allow-origin list (else 403) and with a valid Hanzo IAM JWT, in the Authorization header or as the subprotocols ["bearer", JWT] (else 401): signature by --jwks (or an HS256 --jwt-secret-file), exp required, nbf, --issuer and --audience checked, a string "owner" claim required. The owner scopes everything the client does: it sees and resumes only that owner's sessions. The client does not choose where its sessions work: without --app, a session's cwd must be inside a --workspace directory (default: the directory the bridge starts in; with --app, the app server's --workspace), and hanzo-dev's own settings, credentials and data, and --jwt-secret-file, are out of the tools' reach in every session.

Each text frame is one JSON-RPC 2.0 message to the app server; its answers and events come back as text frames. A binary frame closes the socket with 1003, a frame over --max-message-bytes with 1009, an expired token with 1008, an app server that goes away with 1011. With --app, the app server's token: --app-token-file or HANZO_APP_SERVER_TOKEN. On start the bridge prints one JSON line, {"url":"ws://127.0.0.1:PORT"}; its log goes to stderr. See docs/bridge.md.`

  static examples = [
    '<%= config.bin %> bridge --listen 127.0.0.1:8787 --allow-origin http://localhost:3000 --jwt-secret-file ~/.config/hanzo/bridge.secret',
    '<%= config.bin %> bridge --listen 127.0.0.1:8787 --app http://127.0.0.1:8765 --allow-origin https://chat.hanzo.ai --jwks https://iam.hanzo.ai/.well-known/jwks --issuer https://iam.hanzo.ai --audience hanzo-dev',
    'HANZO_APP_SERVER_TOKEN=$(cat app.token) <%= config.bin %> bridge --listen 127.0.0.1:0 --app http://127.0.0.1:8765 --allow-origin http://localhost:3000 --jwt-secret-file ~/.config/hanzo/bridge.secret',
  ]

  static enableJsonFlag = false

  static flags = {
    listen: Flags.string({
      description: 'Where to listen: 127.0.0.1:PORT (0 picks a free port).',
      helpValue: '127.0.0.1:PORT',
      required: true,
    }),
    app: Flags.string({
      description:
        'The app server: the url `hanzo-dev app-server --listen` printed. Without it, the app server runs in this process.',
      helpValue: 'http://127.0.0.1:PORT',
    }),
    'app-token-file': Flags.string({
      dependsOn: ['app'],
      description: "A file holding the app server's token on its first line (default: env HANZO_APP_SERVER_TOKEN).",
      helpValue: 'FILE',
    }),
    'permission-timeout': Flags.integer({
      default: 300,
      description: 'Without --app: seconds a permission request waits for the client before it is a deny.',
      min: 1,
    }),
    'base-url': Flags.string({
      description: "Without --app: an OpenAI-compatible /v1 base URL for every session; default: the settings'.",
    }),
    'fake-model': Flags.string({
      description: 'Without --app: replay a scripted model in every session (tests, demos).',
      hidden: true,
    }),
    workspace: Flags.directory({
      description:
        'Without --app: a directory sessions may work in; a client cannot pick a cwd outside every one (repeatable; default: the current directory).',
      helpValue: 'DIR',
      multiple: true,
    }),
    'allow-origin': Flags.string({
      description: 'A browser origin allowed to connect, e.g. https://chat.hanzo.ai (repeatable).',
      helpValue: 'ORIGIN',
      multiple: true,
      required: true,
    }),
    jwks: Flags.string({
      description: 'The JWKS URL of the IAM that signs the JWTs (https; http only on 127.0.0.1).',
      exclusive: ['jwt-secret-file'],
      helpValue: 'URL',
    }),
    'jwt-secret-file': Flags.string({
      description: 'A file holding an HS256 secret (32+ bytes) on its first line, instead of --jwks.',
      exclusive: ['jwks'],
      helpValue: 'FILE',
    }),
    issuer: Flags.string({description: 'The "iss" every JWT must carry.', helpValue: 'ISSUER'}),
    audience: Flags.string({description: 'The "aud" every JWT must include.', helpValue: 'AUDIENCE'}),
    'max-message-bytes': Flags.integer({
      default: DEFAULT_MAX_MESSAGE_BYTES,
      description: 'The largest frame or message a client may send; larger ones close the socket (1009).',
      helpValue: 'BYTES',
      min: 1024,
    }),
    'ping-interval': Flags.integer({
      default: 30,
      description: 'Seconds between pings; a client that misses one is dropped.',
      helpValue: 'SECONDS',
      min: 1,
    }),
  }

  async run(): Promise<void> {
    const {flags} = await this.parse(Bridge)
    const ownFlag = ['base-url', 'fake-model', 'workspace'].find((name) => flags[name as 'base-url'] !== undefined)
    if (flags.app !== undefined && ownFlag) {
      throw new UserError(`--${ownFlag} is for the app server the bridge runs itself, without --app`, {
        exitCode: 2,
        hint: `give it to the app server at ${flags.app} instead (hanzo-dev app-server --${ownFlag} ...)`,
      })
    }

    const {OriginAllowList} = await import('../server/bridge/origins.js')
    const {parseAppUrl, parseListen, resolveAppToken, resolveJwtKeys} = await import('../server/bridge/options.js')
    const listen = parseListen(flags.listen)
    const origins = new OriginAllowList(flags['allow-origin'])
    const keys = await resolveJwtKeys(flags)
    // What is logged quotes clients (a close reason) and sessions (a model server's error): through the printer.
    const log = (line: string) => void process.stderr.write(`bridge: ${printable(line)}\n`)
    let app: AppServerLink
    if (flags.app === undefined) {
      const [{createAppServer}, {InProcessAppServer}] = await Promise.all([
        import('../server/app/start.js'),
        import('../server/bridge/in-process-app.js'),
      ])
      const server = await createAppServer({
        baseURL: flags['base-url'],
        cliConfig: this.config,
        cwd: process.cwd(),
        env: process.env,
        fakeModel: flags['fake-model'],
        log,
        permissionTimeoutMs: flags['permission-timeout'] * 1000,
        secretFiles: flags['jwt-secret-file'] === undefined ? [] : [flags['jwt-secret-file']],
        workspaces: flags.workspace,
      })
      app = new InProcessAppServer(server)
    } else {
      const {AppServerClient} = await import('../server/bridge/app-client.js')
      app = new AppServerClient({
        token: await resolveAppToken(flags['app-token-file'], process.env),
        url: parseAppUrl(flags.app),
      })
    }

    const {createJwtVerifier} = await import('../server/bridge/jwt.js')
    const {startBridge} = await import('../server/bridge/bridge-server.js')
    const bridge = await startBridge({
      ...listen,
      app,
      log,
      maxMessageBytes: flags['max-message-bytes'],
      origins,
      pingIntervalMs: flags['ping-interval'] * 1000,
      verify: await createJwtVerifier({audience: flags.audience, issuer: flags.issuer, keys}),
    }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE')
        throw new UserError(`Port ${listen.port} is in use`, {
          hint: 'pick another, or --listen 127.0.0.1:0 for any free one',
        })
      throw error
    })
    process.stdout.write(JSON.stringify({url: bridge.url}) + '\n')
    log(
      `listening on ${bridge.url}, ${app.description}, origins ${origins.origins.join(' ')}, keys ${flags.jwks ?? 'from --jwt-secret-file'}`,
    )
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve)
      process.once('SIGTERM', resolve)
    })
    await bridge.close()
  }
}

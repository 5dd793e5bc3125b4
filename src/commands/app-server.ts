import * as Flags from '@oclif/core/flags'

import {HanzoCommand} from '../cli/base-command.js'

export default class AppServer extends HanzoCommand {
  static description = `Serve agent sessions to another program over JSON-RPC 2.0.

An editor, a script, or the web UI (through hanzo-dev bridge) starts sessions and turns. Over stdio by default (one JSON message per line both ways; logs on stderr), or HTTP on 127.0.0.1 with --listen: GET /events streams the server's messages (SSE), POST /rpc takes the client's; every request needs the bearer token printed at start (one JSON line: url and token).

Sessions work only in the workspaces you give with --workspace (default: the directory the server starts in): a session/start whose cwd is outside them is refused (-32602). In every session, hanzo-dev's own settings, credentials and data, and --token-file, are out of the tools' reach.

Methods: initialize, session/start, session/resume, session/list, session/read, turn/start, turn/interrupt, tools/list, config/read. A turn streams turn/started, item/started, item/delta, item/completed and turn/completed. When the permission rules ask, the server asks the client (permission/request: allow, allow_session or deny); no answer within --permission-timeout is a deny. Every session runs with the same settings, permission rules, hooks, sandbox and saved sessions as hanzo-dev run. The protocol: docs/app-server.md; --print-schema prints its JSON Schema.`

  static examples = [
    '<%= config.bin %> app-server',
    '<%= config.bin %> app-server --listen 127.0.0.1:0',
    '<%= config.bin %> app-server --workspace ~/src/api --workspace ~/src/web',
    '<%= config.bin %> app-server --listen 127.0.0.1:8766 --token-file ~/.config/hanzo/app-server.token',
    '<%= config.bin %> app-server --print-schema > app-server.schema.json',
  ]

  static enableJsonFlag = false

  static flags = {
    'base-url': Flags.string({
      description:
        "An OpenAI-compatible /v1 base URL for every session (Ollama, vLLM, LM Studio, ...); default: the settings'.",
    }),
    listen: Flags.string({
      description: 'Serve HTTP + SSE on this loopback address instead of stdio (PORT 0 picks a free one).',
      helpValue: '127.0.0.1:PORT',
    }),
    'token-file': Flags.string({
      dependsOn: ['listen'],
      description:
        "The bearer token clients must send: this file's first line (default: HANZO_APP_SERVER_TOKEN, else a random one).",
    }),
    'permission-timeout': Flags.integer({
      default: 300,
      description: 'Seconds a permission request waits for the client before it is a deny.',
      min: 1,
    }),
    workspace: Flags.directory({
      description:
        'A directory sessions may work in; a client cannot pick a cwd outside every one (repeatable; default: the current directory).',
      helpValue: 'DIR',
      multiple: true,
    }),
    'print-schema': Flags.boolean({description: "Print the protocol's JSON Schema and exit."}),
    'fake-model': Flags.string({description: 'Replay a scripted model in every session (tests, demos).', hidden: true}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parse(AppServer)
    if (flags['print-schema']) {
      const {protocolJsonSchema} = await import('../server/app/protocol.js')
      this.log(JSON.stringify(protocolJsonSchema(), null, 2))
      return
    }

    const {startAppServer} = await import('../server/app/start.js')
    const stop = new Promise<void>((resolve) => {
      process.once('SIGINT', resolve)
      process.once('SIGTERM', resolve)
    })
    await startAppServer({
      baseURL: flags['base-url'],
      cliConfig: this.config,
      cwd: process.cwd(),
      env: process.env,
      fakeModel: flags['fake-model'],
      listen: flags.listen,
      permissionTimeoutMs: flags['permission-timeout'] * 1000,
      stderr: process.stderr,
      stdin: process.stdin,
      stdout: process.stdout,
      stop,
      tokenFile: flags['token-file'],
      workspaces: flags.workspace,
    })
  }
}

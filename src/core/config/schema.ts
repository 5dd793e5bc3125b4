/**
 * The settings schema, as data. `scripts/generate-validators.js` compiles it at build time
 * into an ajv standalone validator (`dist/core/config/settings-validator.js`), so start-up
 * never loads ajv. The same object drives `config get/set` key checks (see key-path.ts).
 *
 * Every settings file (user, project, local) is checked against this schema on its own:
 * nothing is required at file level, since a tier may set a single key. Unknown keys
 * (`additionalProperties`) are warnings; every other mismatch is an error.
 *
 * `minLength` is never used: ajv's ESM standalone output turns it into a CommonJS `require`
 * of its ucs2length helper. A non-empty string is written `pattern: '\\S'` instead.
 */
// The narrow entry of the sdk: hook events and bounds are shared with the hooks plugin, so a
// hook the schema accepts is one the plugin runs.
import {HOOK_EVENTS, MAX_HOOK_TIMEOUT_MS} from '@hanzo-dev/sdk/settings'

import {HOOK_DEFAULTS} from './types.js'

/** HIP-301 §4's default model. */
export const DEFAULT_MODEL = 'claude-sonnet-4-20250514'

/** What a URL setting must start with; `config keys` shows such a setting as a URL. */
export const HTTP_URL_PATTERN = '^https?://'

const stringMap = {type: 'object', additionalProperties: {type: 'string'}} as const
const httpUrl = {type: 'string', pattern: HTTP_URL_PATTERN} as const

const mcpServer = {
  type: 'object',
  description:
    'An MCP server: a local command (stdio) or a url (HTTP), never both in one file. Merged by name across ' +
    'tiers; a later tier that sets one of them replaces the other.',
  additionalProperties: false,
  not: {properties: {command: true, url: true}, required: ['command', 'url']},
  properties: {
    command: {
      description: 'The program to spawn, or the whole command line as a list.',
      type: ['string', 'array'],
      items: {type: 'string'},
    },
    args: {type: 'array', items: {type: 'string'}, description: 'Arguments after command.'},
    env: {
      ...stringMap,
      description: 'Extra environment of the server process.',
      additionalProperties: {type: 'string', description: 'The value of the variable.'},
    },
    url: {...httpUrl, description: 'The server endpoint (streamable HTTP).'},
    headers: {
      ...stringMap,
      description: 'HTTP headers sent with every request.',
      additionalProperties: {type: 'string', description: 'The value of the header.'},
    },
    oauth: {
      type: 'object',
      description:
        'For an HTTP server that asks for an OAuth login (hanzo-dev mcp login NAME): the client to log in as. Without client_id hanzo-dev registers itself (RFC 7591).',
      additionalProperties: false,
      properties: {
        client_id: {type: 'string', description: 'The client id registered at the authorization server.'},
        client_secret: {type: 'string', description: 'The client secret, for a confidential client.'},
        grant: {
          type: 'string',
          enum: ['authorization_code', 'client_credentials'],
          default: 'authorization_code',
          description:
            'How tokens are got: a person logs in (hanzo-dev mcp login NAME), or client_credentials for a machine-to-machine server (needs client_id and client_secret; no login).',
        },
        scopes: {
          type: 'array',
          items: {type: 'string'},
          description: 'Scopes to ask for (default: what the server says it supports).',
        },
      },
    },
    disabled: {
      type: 'boolean',
      default: false,
      description: 'true turns the server off (a later tier can disable a server an earlier one defines).',
    },
    log_level: {
      type: 'string',
      enum: ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'],
      description:
        'The least severe message a server that logs should send (logging/setLevel after it connects); unset: its own default.',
    },
    startup_timeout_ms: {
      type: 'integer',
      minimum: 1,
      default: 30_000,
      description:
        'How long the server may take to start and answer initialize; past it the session goes on without it.',
    },
    tool_timeout_ms: {type: 'integer', minimum: 1, default: 120_000, description: 'How long one tool call may take.'},
    trust_read_only_hint: {
      type: 'boolean',
      default: false,
      description:
        'true: a tool the server marks readOnlyHint counts as read-only. Otherwise every tool of the server counts as mutating.',
    },
  },
} as const

const lspServer = {
  type: 'object',
  description: 'A language server speaking LSP over stdio.',
  additionalProperties: false,
  properties: {
    command: {
      type: 'string',
      pattern: '\\S',
      description: "The executable: looked up on PATH, then in the project's node_modules/.bin.",
    },
    args: {type: 'array', items: {type: 'string'}, description: 'Arguments after command (usually ["--stdio"]).'},
    files: {
      type: 'array',
      items: {type: 'string', pattern: '\\S'},
      description:
        'Globs of the files it covers, relative to the project root ("**/*.vue"); a glob without / matches file names.',
    },
    language_id: {
      type: 'string',
      pattern: '\\S',
      description: 'The LSP language id of the files (default: from the extension, else the name).',
    },
    disabled: {type: 'boolean', default: false, description: 'true turns the language off.'},
  },
} as const

const provider = {
  type: 'object',
  description:
    'A model provider: one of the built-in ones (hanzo, anthropic, openai, ollama, vllm, lmstudio) with changes, or a new one.',
  additionalProperties: false,
  properties: {
    base_url: {
      ...httpUrl,
      description: "The provider's API base URL (for OpenAI-compatible servers, the one ending in /v1).",
    },
    api_key: {type: 'string', description: 'The API key sent to this provider.'},
    api: {
      enum: ['chat_completions', 'responses', 'anthropic_messages'],
      description: 'The wire API the provider speaks.',
    },
    images: {
      type: 'boolean',
      description:
        "Whether the provider's models take images (fs_read of a picture, @shot.png in the chat). Unset: known by the model's name " +
        '(claude-*, gpt-4o*, gpt-4.1*, gpt-5*, o3, o4, gemini-* and other vision models do); other models are taken for text-only.',
    },
    prompt_cache: {
      type: 'boolean',
      description:
        'Whether requests ask the server to cache their prompt prefix: cache_control breakpoints with api anthropic_messages, ' +
        'prompt_cache_key (the session id) with the OpenAI APIs. Unset: on for anthropic_messages, and for OpenAI ' +
        '(provider openai or api.openai.com) but off for other OpenAI-compatible servers. false for a server that refuses them.',
    },
    oauth: {
      type: 'object',
      description: 'How `auth login` signs in to this provider.',
      additionalProperties: false,
      properties: {
        issuer: {...httpUrl, description: 'OAuth issuer; its discovery document gives the endpoints not set here.'},
        client_id: {type: 'string', description: 'The OAuth client id registered for hanzo-dev.'},
        client_secret: {type: 'string', description: 'The client secret, for a provider that requires one.'},
        authorize_url: {...httpUrl, description: 'The authorization endpoint (browser login).'},
        token_url: {...httpUrl, description: 'The token endpoint.'},
        device_authorization_url: {
          ...httpUrl,
          description: 'The device authorization endpoint (RFC 8628, `auth login --device`).',
        },
        revocation_url: {...httpUrl, description: 'Where `auth logout` revokes the login.'},
        flow: {
          enum: ['pkce', 'device'],
          default: 'pkce',
          description: 'How `auth login` signs in when --device is not given.',
        },
        redirect_uri: {
          type: 'string',
          description: 'The redirect URI registered for the client; default: a loopback address on 127.0.0.1.',
        },
        scopes: {type: 'array', items: {type: 'string'}, description: 'The scopes to ask for.'},
      },
    },
  },
} as const

const hook = {
  type: 'object',
  description:
    'A shell command run at an event of the agent loop (HIP-301 §9): exit 0 allows, exit 2 denies with stderr as the reason.',
  additionalProperties: false,
  required: ['event', 'command'],
  properties: {
    event: {enum: HOOK_EVENTS, description: 'When the hook runs.'},
    command: {type: 'string', pattern: '\\S', description: 'The command line, run by the shell in the project root.'},
    tool_pattern: {
      type: 'string',
      pattern: '\\S',
      default: HOOK_DEFAULTS.tool_pattern,
      description:
        'The tools a pre_tool_use or post_tool_use hook runs for: a glob of tool names (exec, fs_*, mcp__github__*).',
    },
    timeout_ms: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_HOOK_TIMEOUT_MS,
      default: HOOK_DEFAULTS.timeout_ms,
      description: 'How long the hook may run before its whole process group is killed.',
    },
    fail_open: {
      type: 'boolean',
      default: HOOK_DEFAULTS.fail_open,
      description: 'true: a hook that crashes or times out lets the tool run (by default it denies).',
    },
  },
} as const

/** Shared by the build-time generator and the from-source fallback, so both validate alike. */
export const AJV_OPTIONS = {allErrors: true, allowUnionTypes: true, strict: true, verbose: true} as const

/**
 * Every setting has a description, and a `default` when it has one that does not depend on
 * where hanzo-dev runs: `hanzo-dev config keys` shows them. Which tiers may set what is not
 * written here: it is derived from the checks that enforce it (see setting-keys.ts).
 */
export const SETTINGS_SCHEMA = {
  $id: 'https://hanzo.ai/schemas/hanzo-dev/settings.json',
  title: 'hanzo-dev settings',
  type: 'object',
  additionalProperties: false,
  properties: {
    $schema: {type: 'string', description: 'Editors may point this at the schema; ignored.'},
    api_key: {type: 'string', description: 'API key of the default provider.'},
    oauth_credentials: {type: 'object', description: 'Stored OAuth tokens (HIP-301 §4).'},
    model: {type: 'string', pattern: '\\S', default: DEFAULT_MODEL, description: 'The model id requests ask for.'},
    base_url: {
      ...httpUrl,
      description: "API base URL of the default provider (hanzo's, unless provider names another).",
    },
    provider: {
      type: 'string',
      pattern: '\\S',
      description:
        'The provider to use: a built-in one (hanzo, anthropic, openai, ollama, vllm, lmstudio) or a name under providers. ' +
        'Unset: the first of hanzo, anthropic and openai that has a key or a login.',
    },
    providers: {
      type: 'object',
      description: 'Providers by name: changes to built-in ones, or new ones.',
      additionalProperties: provider,
    },
    api: {
      enum: ['chat_completions', 'responses', 'anthropic_messages'],
      description:
        'Wire API of the default provider. Unset: responses for api.openai.com, anthropic_messages for api.anthropic.com, chat_completions elsewhere.',
    },
    max_retries: {
      type: 'integer',
      minimum: 0,
      maximum: 10,
      default: 2,
      description: 'Retries of a model request after a 429 or 5xx.',
    },
    max_turns: {
      type: 'integer',
      minimum: 1,
      default: 25,
      description: 'Model requests one `run` may make (--max-turns overrides it).',
    },
    allowed_base_url_hosts: {
      type: 'array',
      items: {type: 'string', pattern: '\\S'},
      description:
        'Hosts ("host", "host:port" or "*.domain") a project or local base_url may point at while your API key is ' +
        'configured; any other project base_url is ignored.',
    },
    mcp_servers: {
      type: 'object',
      description: 'MCP servers by name; their tools reach the agent as mcp__<name>__<tool>.',
      additionalProperties: mcpServer,
    },
    permissions: {
      type: 'object',
      description:
        'Permission rules: a tool pattern (exec, fs_write(src/**), exec(git status*), mcp__github__*) and what to do ' +
        'with a call it matches. Deny rules of every tier are checked first; read-only tools are allowed by built-in rules (`config list` shows them).',
      additionalProperties: {
        enum: ['allow', 'deny', 'prompt'],
        description: 'allow runs the call, deny refuses it, prompt asks first.',
      },
    },
    custom_instructions: {
      type: 'string',
      description: 'Text added to the system prompt, after the project instructions (AGENTS.md, ...).',
    },
    hooks: {
      type: 'array',
      items: hook,
      description: 'Shell commands run around tool calls and other events of the agent loop.',
    },
    input_mode: {enum: ['vim', 'emacs', 'default'], description: 'Key bindings of the interactive session input line.'},
    sandbox: {
      type: 'object',
      description: "How the agent's file tools and commands are confined (HIP-301 §10).",
      additionalProperties: false,
      properties: {
        mode: {
          enum: ['auto', 'off', 'workspace', 'allowlist'],
          default: 'auto',
          description:
            "workspace: tools reach only the project, commands write only there and in the package managers' caches; allowlist: the project and allowed_paths, writing only to allowed_paths; off: no confinement; " +
            'auto: workspace wherever it confines commands (containers too), off only inside a container where neither bubblewrap nor unshare works.',
        },
        allowed_paths: {
          type: 'array',
          items: {type: 'string', pattern: '\\S'},
          description:
            'The paths allowlist mode adds, and the only ones it lets tools write: relative to the project root, or absolute. ' +
            "A project's own settings may only name paths inside it, and only once it is trusted.",
        },
        network: {
          type: 'boolean',
          default: true,
          description: 'false: commands the agent runs get no network (under bubblewrap).',
        },
      },
    },
    exec: {
      type: 'object',
      description: 'How the exec tool runs commands.',
      additionalProperties: false,
      properties: {
        env_passthrough: {
          type: 'array',
          items: {type: 'string', pattern: '^[\\w*?]+$'},
          description:
            'Environment variables commands get although they look secret (a name with KEY, TOKEN, SECRET, PASSWORD, CREDENTIAL, ending in PAT, DATABASE_URL, ' +
            'or a URL with a user name or password): names, or globs like AWS_*. Only read from your user settings.',
        },
      },
    },
    checkpoints: {
      type: 'object',
      description:
        'What each file the agent changed held before each prompt, kept in your data dir so hanzo-dev sessions rewind can put it back (files .gitignore ignores are not kept).',
      additionalProperties: false,
      properties: {
        enabled: {type: 'boolean', default: true, description: 'false: no checkpoints are kept.'},
        max_file_bytes: {
          type: 'integer',
          minimum: 0,
          default: 1048576,
          description: 'Larger files are not kept (and cannot be rewound).',
        },
        max_total_mb: {
          type: 'integer',
          minimum: 1,
          default: 1024,
          description: "Past it, the oldest sessions' checkpoints are pruned when a session starts.",
        },
        keep_days: {
          type: 'integer',
          minimum: 1,
          default: 30,
          description: 'Checkpoints of sessions not used for longer are pruned when a session starts.',
        },
      },
    },
    tools: {
      type: 'object',
      description: 'Which tools the agent is offered (the --tools flag of run and chat beats it).',
      additionalProperties: false,
      properties: {
        enabled: {
          type: 'array',
          items: {type: 'string', pattern: '^[\\w*?.-]+$'},
          description:
            'Groups (fs, exec, web, git, lsp, mcp), tool names and globs (mcp__github__*), or one of all, none, read-only. ' +
            'Unset: every tool. hanzo-dev tools lists what a session would offer.',
        },
      },
    },
    max_tokens: {
      type: 'integer',
      minimum: 1,
      description:
        "Token budget of a conversation: compaction starts at 90% of it. Unset: the model's context window from the bundled catalog; a model it does not know gets no automatic compaction.",
    },
    auto_compact: {
      type: 'boolean',
      default: true,
      description: 'Compact the conversation automatically past 90% of its budget (max_tokens or the context window).',
    },
    max_output_tokens: {
      type: 'integer',
      minimum: 1,
      description:
        "The most tokens one model reply may have, sent with each request. Unset: the server's default (Anthropic: 8192).",
    },
    reserve_recent: {
      type: 'integer',
      minimum: 1,
      default: 4,
      description: 'Turns compaction keeps whole at the end of the history.',
    },
    pricing: {
      type: 'object',
      description:
        "Prices by model id, in USD per million tokens, to show a cost next to usage and enforce --max-budget-usd; over the model catalog's.",
      additionalProperties: {
        type: 'object',
        description: "The model's prices.",
        additionalProperties: false,
        required: ['input', 'output'],
        properties: {
          input: {type: 'number', minimum: 0, description: 'USD per million input tokens.'},
          output: {type: 'number', minimum: 0, description: 'USD per million output tokens.'},
          cache_read: {
            type: 'number',
            minimum: 0,
            description: 'USD per million input tokens read from the prompt cache (unset: the input price).',
          },
          cache_write: {
            type: 'number',
            minimum: 0,
            description: 'USD per million input tokens written to the prompt cache (unset: the input price).',
          },
          context_window: {
            type: 'integer',
            minimum: 1,
            description: "The model's context window in tokens, for a model the catalog does not know.",
          },
        },
      },
    },
    tracing: {
      type: 'object',
      description: 'Send run, model and tool spans to a collector (HANZO_TRACING_DISABLED=1 turns it off).',
      additionalProperties: false,
      properties: {
        endpoint: {...httpUrl, description: 'Where span batches are POSTed (JSON).'},
        api_key: {type: 'string', description: 'Sent as a bearer token to the endpoint.'},
      },
    },
    lsp: {
      type: 'object',
      description: 'Language servers: the diagnostics an edit caused go back to the agent with the edit (HIP-301 §8).',
      additionalProperties: false,
      properties: {
        diagnostics_timeout_ms: {
          type: 'integer',
          minimum: 0,
          maximum: 120000,
          default: 3000,
          description: 'The most an fs_write or fs_edit waits for the diagnostics of the file it changed to settle.',
        },
        project_servers: {
          type: 'boolean',
          default: false,
          description:
            "Run a language server the project provides in its node_modules/.bin (a dev dependency such as typescript-language-server). It is the project's own program, " +
            'so it runs only when you set this. Only read from your user settings.',
        },
        servers: {
          type: 'object',
          description:
            'Language servers by name: a built-in language (typescript, python, rust, go, c) with another command, args or files, or a new ' +
            'server for the files it names. Only read from your user settings.',
          additionalProperties: lspServer,
        },
      },
    },
    web_search: {
      type: 'object',
      description:
        'The search API behind the web_search tool, which is offered only when this is set. Only read from your user settings.',
      additionalProperties: false,
      required: ['provider'],
      // SearXNG has no public instance to default to: it is always one the user runs or chose.
      if: {properties: {provider: {const: 'searxng'}}},
      then: {properties: {url: true}, required: ['url']},
      properties: {
        provider: {
          enum: ['hanzo', 'searxng', 'brave'],
          description:
            "hanzo: Hanzo's API with your Hanzo login or key; searxng: a SearXNG instance (url, JSON format enabled); brave: the Brave Search API.",
        },
        url: {
          ...httpUrl,
          description:
            "The API's base URL. Default: Hanzo's API base URL for hanzo, https://api.search.brave.com for brave; required for searxng.",
        },
        api_key_env: {
          type: 'string',
          pattern: '^[A-Za-z_][A-Za-z0-9_]*$',
          description:
            'The environment variable holding the API key (the key itself never goes in a settings file). Default: BRAVE_API_KEY for brave, your Hanzo credential for hanzo, none for searxng.',
        },
      },
    },
    credentials: {
      type: 'object',
      description: 'Where `auth login` keeps tokens.',
      additionalProperties: false,
      properties: {
        store: {
          enum: ['file', 'keychain'],
          description:
            'file: credentials.json (0600) beside your user settings; keychain: the OS keychain. Unset: the keychain on macOS and Windows, the file elsewhere.',
        },
      },
    },
  },
} as const

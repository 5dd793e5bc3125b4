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

/** HIP-301 §4's default model. */
export const DEFAULT_MODEL = 'claude-sonnet-4-20250514'

const stringMap = {type: 'object', additionalProperties: {type: 'string'}} as const
const httpUrl = {type: 'string', pattern: '^https?://'} as const

const mcpServer = {
  type: 'object',
  description:
    'An MCP server: a local command (stdio) or a url (HTTP), never both in one file. Merged by name across ' +
    'tiers; a later tier that sets one of them replaces the other (see merge.ts).',
  additionalProperties: false,
  not: {properties: {command: true, url: true}, required: ['command', 'url']},
  properties: {
    command: {
      description: 'The program to spawn, or the whole command line as a list.',
      type: ['string', 'array'],
      items: {type: 'string'},
    },
    args: {type: 'array', items: {type: 'string'}},
    env: {...stringMap, description: 'Extra environment; secret-looking names are honoured only in the user tier.'},
    url: httpUrl,
    headers: {...stringMap, description: 'HTTP headers; secret-looking names are honoured only in the user tier.'},
    disabled: {type: 'boolean', description: 'true turns the server off (a lower tier can disable a higher one).'},
  },
} as const

const provider = {
  type: 'object',
  description: 'Per-provider settings; api_key and oauth are honoured only in the user tier.',
  additionalProperties: false,
  properties: {
    base_url: httpUrl,
    api_key: {type: 'string'},
    api: {enum: ['chat_completions', 'responses', 'anthropic_messages']},
    oauth: {
      type: 'object',
      additionalProperties: false,
      properties: {
        issuer: {...httpUrl, description: 'OAuth issuer; its discovery document gives the endpoints not set here.'},
        client_id: {type: 'string'},
        client_secret: {type: 'string'},
        authorize_url: httpUrl,
        token_url: httpUrl,
        device_authorization_url: httpUrl,
        revocation_url: httpUrl,
        flow: {enum: ['pkce', 'device'], description: 'How `auth login` signs in when --device is not given.'},
        redirect_uri: {type: 'string'},
        scopes: {type: 'array', items: {type: 'string'}},
      },
    },
  },
} as const

const hook = {
  type: 'object',
  description: 'A shell command run around tool calls (HIP-301 §9).',
  additionalProperties: false,
  required: ['event', 'command'],
  properties: {
    event: {enum: HOOK_EVENTS},
    command: {type: 'string', pattern: '\\S'},
    tool_pattern: {type: 'string', pattern: '\\S'},
    timeout_ms: {type: 'integer', minimum: 1, maximum: MAX_HOOK_TIMEOUT_MS},
    fail_open: {type: 'boolean'},
  },
} as const

/** Shared by the build-time generator and the from-source fallback, so both validate alike. */
export const AJV_OPTIONS = {allErrors: true, allowUnionTypes: true, strict: true, verbose: true} as const

export const SETTINGS_SCHEMA = {
  $id: 'https://hanzo.ai/schemas/hanzo-dev/settings.json',
  title: 'hanzo-dev settings',
  type: 'object',
  additionalProperties: false,
  properties: {
    $schema: {type: 'string', description: 'Editors may point this at the schema; ignored.'},
    api_key: {type: 'string', description: 'API key of the default provider. User tier (or HANZO_API_KEY) only.'},
    oauth_credentials: {type: 'object', description: 'Stored OAuth tokens (HIP-301 §4). User tier only.'},
    model: {type: 'string', pattern: '\\S', description: `Model id; default ${DEFAULT_MODEL}.`},
    base_url: {...httpUrl, description: 'API base URL of the default provider.'},
    provider: {type: 'string', pattern: '\\S', description: 'The default provider (a name under providers, or a built-in one).'},
    providers: {type: 'object', additionalProperties: provider},
    api: {
      enum: ['chat_completions', 'responses', 'anthropic_messages'],
      description: 'Wire API of the default provider; default responses for api.openai.com, anthropic_messages for api.anthropic.com, chat_completions elsewhere.',
    },
    max_retries: {type: 'integer', minimum: 0, maximum: 10, description: 'Retries of a model request after a 429 or 5xx; default 2.'},
    max_turns: {type: 'integer', minimum: 1, description: 'Model requests one `run` may make; default 25.'},
    allowed_base_url_hosts: {
      type: 'array',
      items: {type: 'string', pattern: '\\S'},
      description:
        'User tier only. Hosts ("host", "host:port" or "*.domain") a project or local base_url may point at ' +
        'while your API key is configured; any other project base_url is ignored.',
    },
    mcp_servers: {type: 'object', additionalProperties: mcpServer},
    permissions: {
      type: 'object',
      description: 'Tool pattern -> allow | deny | prompt, in file order. Deny rules from every tier are kept.',
      additionalProperties: {enum: ['allow', 'deny', 'prompt']},
    },
    custom_instructions: {type: 'string', description: 'Text added to the system prompt.'},
    hooks: {type: 'array', items: hook},
    input_mode: {enum: ['vim', 'emacs', 'default']},
    sandbox: {
      type: 'object',
      additionalProperties: false,
      properties: {
        mode: {enum: ['off', 'workspace', 'allowlist']},
        allowed_paths: {type: 'array', items: {type: 'string', pattern: '\\S'}},
        network: {type: 'boolean', description: 'false: commands the agent runs get no network (under bubblewrap).'},
      },
    },
    max_tokens: {type: 'integer', minimum: 1, description: 'Token budget of a conversation (compaction starts at 90%).'},
    max_output_tokens: {
      type: 'integer',
      minimum: 1,
      description: "The most tokens one model reply may have, sent with each request; default the server's (Anthropic: 8192).",
    },
    reserve_recent: {type: 'integer', minimum: 1, description: 'Turns compaction keeps whole at the end of the history; default 4.'},
    pricing: {
      type: 'object',
      description: 'Model id -> USD per million tokens, to show a cost next to usage.',
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['input', 'output'],
        properties: {input: {type: 'number', minimum: 0}, output: {type: 'number', minimum: 0}},
      },
    },
    tracing: {
      type: 'object',
      description: 'Send run, model and tool spans to a collector. User tier only.',
      additionalProperties: false,
      properties: {
        endpoint: {...httpUrl, description: 'Where span batches are POSTed (JSON).'},
        api_key: {type: 'string', description: 'Sent as a bearer token to the endpoint.'},
      },
    },
    credentials: {
      type: 'object',
      description: 'Where `auth login` keeps tokens. User tier only.',
      additionalProperties: false,
      properties: {store: {enum: ['file', 'keychain']}},
    },
  },
} as const

import {CREDENTIAL_ENV_VARS} from '@hanzo-dev/sdk/settings'

import {hasUrlUserinfo} from '../../core/config/sensitive.js'
import {globMatches} from '../../core/permissions/glob.js'

/**
 * Variable names that conventionally hold a secret, whichever service it is for (`API_KEY`,
 * `GITHUB_TOKEN`, `STRIPE_SECRET`, `PGPASSWORD`, `GITHUB_PAT`, `GOOGLE_APPLICATION_CREDENTIALS`,
 * `DATABASE_URL`). A name is a pattern, not a list: a service nobody listed is covered too.
 */
const SECRET_VARIABLE = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|PAT$|^DATABASE_URL$/i

const CREDENTIALS = new Set<string>(CREDENTIAL_ENV_VARS)

/**
 * The environment a command the model runs gets: the user's, minus every credential. The model
 * chooses the command, so anything it can read there it can print into the conversation (and the
 * conversation goes to a model provider): `echo $HANZO_API_KEY` must print nothing. A variable
 * goes when its name looks secret or its value is a URL with a user name or password in it
 * (`HTTPS_PROXY=http://user:pw@proxy`); `passthrough` (the `exec.env_passthrough` setting:
 * names, or globs like `AWS_*`) keeps the ones the user wants through.
 */
export function withoutCredentials(
  env: Readonly<Record<string, string | undefined>>,
  passthrough: readonly string[] = [],
): Record<string, string> {
  const result: Record<string, string> = {}
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue
    const secret = CREDENTIALS.has(name.toUpperCase()) || SECRET_VARIABLE.test(name) || hasUrlUserinfo(value)
    if (secret && !passthrough.some((glob) => globMatches(glob, name))) continue
    result[name] = value
  }

  return result
}

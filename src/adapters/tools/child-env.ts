import {CREDENTIAL_ENV_VARS} from '@hanzo-dev/sdk/settings'

/**
 * Variable names that conventionally hold a secret, whichever service it is for (`GITHUB_TOKEN`,
 * `STRIPE_SECRET`, `AWS_SECRET_ACCESS_KEY`, `PGPASSWORD`).
 */
const SECRET_VARIABLE = /(_API_KEY|_TOKEN|_SECRET|_SECRET_KEY|_SECRET_ACCESS_KEY|_PRIVATE_KEY|PASSWORD|_PASSWD)$/i

const CREDENTIALS = new Set<string>(CREDENTIAL_ENV_VARS)

/**
 * The environment a command the model runs gets: the user's, minus every credential. The model
 * chooses the command, so anything it can read there it can print into the conversation (and the
 * conversation goes to a model provider): `echo $HANZO_API_KEY` must print nothing.
 */
export function withoutCredentials(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const result: Record<string, string> = {}
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || CREDENTIALS.has(name.toUpperCase()) || SECRET_VARIABLE.test(name)) continue
    result[name] = value
  }

  return result
}

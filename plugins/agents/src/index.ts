// Shared with the settings loader, which counts the same variables as the user's keys.
export {CREDENTIAL_ENV_VARS} from '@hanzo-dev/sdk'
export {
  type CredentialLookup,
  type CredentialSource,
  CREDENTIALS_FILE,
  credentialsFile,
  findCredentialSources,
} from './credentials.js'
export {agentsChecks} from './doctor-checks.js'
export {default as doctor} from './hooks/doctor.js'

export {
  CREDENTIAL_ENV_VARS,
  type CredentialLookup,
  type CredentialSource,
  CREDENTIALS_FILE,
  credentialsFile,
  findCredentialSources,
} from './credentials.js'
export {agentsChecks} from './doctor-checks.js'
export {default as doctor} from './hooks/doctor.js'

export {gitChecks} from './doctor-checks.js'
export {GIT_TIMEOUT_MS, type GitContext, gitVersion, runGit} from './git-cli.js'
export {default as doctor} from './hooks/doctor.js'
export {type RepositoryInfo, readRepository} from './repository.js'

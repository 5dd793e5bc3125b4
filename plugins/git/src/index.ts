export {gitChecks} from './doctor-checks.js'
export {GIT_TIMEOUT_MS, type GitContext, GitError, gitVersion, runGit} from './git-cli.js'
export {default as doctor} from './hooks/doctor.js'
export {openRepository, type Repository, type RepositoryInfo, readRepository} from './repository.js'
// The workflows behind the commands, for the interactive session's /commit, /commit-push-pr and /diff.
export {commitChanges, type CommitOptions, type CommitResult, MESSAGE_FILE} from './commit-flow.js'
export {commitPushPr, type PrOptions, type PrResult} from './pr-flow.js'
export {type ChangedFile, describeChange, readChange, readStagedChange, type StagedChange} from './staged-change.js'
export {gitTools} from './git-tools.js'

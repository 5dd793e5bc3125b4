export {lspChecks} from './doctor-checks.js'
export {default as doctor} from './hooks/doctor.js'
export {detectLanguages, LANGUAGES, type LanguageSpec, type ServerSpec} from './languages.js'
export {findAllServers, findServer, type FoundServer, type LookupOptions} from './server-lookup.js'

// The library API: the core without the CLI. The CLI uses these same modules.
export * from '@hanzo-dev/sdk'
export {collectContributions, collectDoctorReports} from './adapters/plugin-host.js'
export {nodeConfigIO} from './adapters/config-io.js'
export {hostInput, loadHostContext} from './adapters/host-context.js'
export * from './core/config/index.js'
export * from './core/errors.js'
export * from './core/paths.js'
export * from './core/protocol/index.js'

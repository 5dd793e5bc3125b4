export * from './contract.js'
export * from './tools.js'

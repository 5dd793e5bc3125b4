export * from './input-validation.js'
export * from './pipeline.js'
export * from './registry.js'
export * from './truncate.js'

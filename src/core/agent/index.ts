export * from './loop.js'
export * from './runner.js'
export * from './think.js'
export * from './types.js'

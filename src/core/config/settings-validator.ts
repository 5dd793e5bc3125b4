// What runs from source (vitest, a bare `tsc -b`): the settings schema compiled by ajv at run time.
// `scripts/generate-validators.js` (part of `npm run build`) overwrites this module's output in
// dist/ with an ajv standalone validator compiled from the same schema and options, so the built
// CLI never loads the ajv compiler. Both export the same function.
import {Ajv} from 'ajv'

import {AJV_OPTIONS, SETTINGS_SCHEMA} from './schema.js'

const validate = new Ajv(AJV_OPTIONS).compile<unknown>(SETTINGS_SCHEMA)

export default validate

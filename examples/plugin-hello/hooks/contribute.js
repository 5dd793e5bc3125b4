import {API_VERSION, greet} from '../lib/greet.js'

/**
 * Answers `hanzo:contribute` with one read-only tool. The object follows the contract's
 * ToolDefinition shape; input is validated by hanzo-dev against `inputSchema` before
 * `execute` runs, and a ToolResult goes back to the model.
 */
export default async function contribute() {
  return {
    apiVersion: API_VERSION,
    tools: [
      {
        description: 'Greets someone by name. Use it when the user asks to be greeted.',
        async execute(input) {
          return {error: null, is_error: false, output: greet(input.name)}
        },
        inputSchema: {
          additionalProperties: false,
          properties: {name: {description: 'Who to greet', type: 'string'}},
          required: ['name'],
          type: 'object',
        },
        mutating: false,
        name: 'hello_greet',
      },
    ],
  }
}

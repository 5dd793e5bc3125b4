// ESLint 9 flat config: the recommended sets of ESLint and typescript-eslint for every source
// file in the repository, plus the few type-aware rules that catch what a CLI gets wrong most
// (a promise nobody awaits ends the command early or crashes it later).
import js from '@eslint/js'
import {defineConfig, globalIgnores} from 'eslint/config'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default defineConfig(
  globalIgnores([
    '**/node_modules/',
    '**/dist/',
    'coverage/',
    'tmp/',
    '**/oclif.manifest.json',
    // What `npm pack` and the tests produce inside the example plugin.
    'examples/*/node_modules/',
    'examples/**/*.tgz',
  ]),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: {ecmaVersion: 2023, globals: globals.node, sourceType: 'module'},
    linterOptions: {reportUnusedDisableDirectives: 'error'},
    rules: {
      // `_name` marks a parameter an interface requires but this implementation ignores.
      '@typescript-eslint/no-unused-vars': [
        'error',
        {argsIgnorePattern: '^_', caughtErrors: 'none', varsIgnorePattern: '^_'},
      ],
      eqeqeq: ['error', 'smart'],
      'no-var': 'error',
      'prefer-const': 'error',
    },
  },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: {
        project: ['./tsconfig.json', './tsconfig.test.json', './plugins/*/tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', {checksVoidReturn: {arguments: false}}],
    },
  },
  // The layers (ARCHITECTURE.md, docs/architecture.md), kept by the linter: the core is pure, the
  // adapters never reach up into the CLI, and a plugin reaches the host only through the sdk.
  {
    files: ['src/core/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              allowTypeImports: true,
              message:
                "the core imports only the sdk's types, or its pure modules (@hanzo-dev/sdk/errors, /tools, /settings, /terminal-text)",
              name: '@hanzo-dev/sdk',
            },
          ],
          patterns: [
            {
              group: ['**/adapters/**', '**/cli/**', '**/ui/**', '**/server/**', '**/commands/**', '**/host.js'],
              message: 'the core is pure: adapters, the CLI, the UI and the servers build on it, never the other way',
            },
            {
              group: ['@oclif/*', 'node:child_process', 'node:net', 'node:http', 'node:https'],
              message: 'the core starts no process and talks to no network or terminal: inject a port',
            },
            {group: ['@hanzo-dev/plugin-*'], message: 'the core knows no plugin'},
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        {message: 'the core reads no process globals (env, cwd, streams): take them as parameters', name: 'process'},
      ],
    },
  },
  {
    files: ['src/adapters/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/cli/**', '**/ui/**', '**/commands/**', '**/server/**'],
              message:
                'adapters sit under the CLI, the UI and the servers: move the shared part down, or the caller up',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['plugins/*/src/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['hanzo-dev', 'hanzo-dev/*', '../../../src/**', '../../../../src/**'],
              message: 'a plugin reaches the host only through @hanzo-dev/sdk (loadHost, HookOptions.hostApi)',
            },
            {
              group: ['@hanzo-dev/plugin-*'],
              message: 'a plugin does not import another plugin: they meet in the host (middleware, ToolContext)',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['plugins/sdk/src/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              allowTypeImports: true,
              group: ['@oclif/*'],
              message: 'the sdk imports no oclif at run time: plugins and the core load it without',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.d.ts'],
    ...tseslint.configs.disableTypeChecked,
  },
)

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
      '@typescript-eslint/no-unused-vars': ['error', {argsIgnorePattern: '^_', caughtErrors: 'none', varsIgnorePattern: '^_'}],
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
  {
    files: ['**/*.d.ts'],
    ...tseslint.configs.disableTypeChecked,
  },
)

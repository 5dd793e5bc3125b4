import {access} from 'node:fs/promises'
import {join} from 'node:path'

export interface ServerSpec {
  /** The executable looked up on PATH. */
  command: string
  /** Arguments that make it speak LSP over stdio. */
  args: string[]
  install: string
}

export interface LanguageSpec {
  id: string
  name: string
  /** Files in the project root that say the project uses this language. */
  markers: string[]
  /** In order of preference: the first one found on PATH is used. */
  servers: ServerSpec[]
  /**
   * The file name endings the server covers, each with the LSP language id of such a file
   * (`.tsx` is `typescriptreact`).
   */
  extensions: Readonly<Record<string, string>>
  /** Globs (from `lsp.servers`) that replace `extensions` in saying which files the server covers. */
  files?: string[]
  /** The LSP language id of every file it covers, when the extension does not say. */
  languageId?: string
  disabled?: boolean
}

/**
 * The languages hanzo-dev knows a server for. HIP-301 §8 names pyright, rust-analyzer and
 * typescript-language-server; the others are the de-facto servers of their ecosystems.
 */
export const LANGUAGES: readonly LanguageSpec[] = [
  {
    id: 'typescript',
    markers: ['tsconfig.json', 'jsconfig.json', 'package.json'],
    name: 'TypeScript / JavaScript',
    servers: [
      {
        args: ['--stdio'],
        command: 'typescript-language-server',
        // Majors that work on hanzo-dev's Node 20: TypeScript 7 is a native compiler without the
        // tsserver.js this server drives, and typescript-language-server 6 needs Node 22.
        install: 'npm i -g typescript-language-server@5 typescript@5',
      },
    ],
    extensions: {
      '.ts': 'typescript',
      '.mts': 'typescript',
      '.cts': 'typescript',
      '.tsx': 'typescriptreact',
      '.js': 'javascript',
      '.mjs': 'javascript',
      '.cjs': 'javascript',
      '.jsx': 'javascriptreact',
    },
  },
  {
    id: 'python',
    markers: ['pyproject.toml', 'setup.py', 'setup.cfg', 'requirements.txt', 'Pipfile'],
    name: 'Python',
    servers: [
      {args: ['--stdio'], command: 'pyright-langserver', install: 'npm i -g pyright  (or: pip install pyright)'},
      {args: ['--stdio'], command: 'basedpyright-langserver', install: 'pip install basedpyright'},
      {args: [], command: 'pylsp', install: "pip install 'python-lsp-server[all]'"},
    ],
    extensions: {'.py': 'python', '.pyi': 'python'},
  },
  {
    id: 'rust',
    markers: ['Cargo.toml'],
    name: 'Rust',
    servers: [{args: [], command: 'rust-analyzer', install: 'rustup component add rust-analyzer'}],
    extensions: {'.rs': 'rust'},
  },
  {
    id: 'go',
    markers: ['go.mod'],
    name: 'Go',
    servers: [{args: [], command: 'gopls', install: 'go install golang.org/x/tools/gopls@latest'}],
    extensions: {'.go': 'go'},
  },
  {
    id: 'c',
    markers: ['compile_commands.json', 'CMakeLists.txt', 'meson.build'],
    name: 'C / C++',
    servers: [{args: [], command: 'clangd', install: 'install clangd (apt-get install clangd, brew install llvm)'}],
    extensions: {'.c': 'c', '.h': 'c', '.cc': 'cpp', '.cpp': 'cpp', '.cxx': 'cpp', '.hpp': 'cpp', '.hh': 'cpp'},
  },
]

/** The languages whose marker files sit in `root` (the project root, not searched recursively). */
export async function detectLanguages(
  root: string,
  languages: readonly LanguageSpec[] = LANGUAGES,
): Promise<LanguageSpec[]> {
  const present = await Promise.all(languages.map(async (l) => ((await anyExists(root, l.markers)) ? l : undefined)))
  return present.filter((l): l is LanguageSpec => l !== undefined)
}

async function anyExists(root: string, names: string[]): Promise<boolean> {
  const found = await Promise.all(
    names.map((n) =>
      access(join(root, n)).then(
        () => true,
        () => false,
      ),
    ),
  )
  return found.includes(true)
}

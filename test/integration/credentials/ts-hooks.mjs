// Module hooks (`module.register`) that let a child `node` import the TypeScript sources, as
// vitest does for the tests themselves: the test needs no build. Each file is transpiled on its
// own, types dropped and nothing checked; the type check is tsc's job.
import {readFile} from 'node:fs/promises'
import {fileURLToPath} from 'node:url'
import ts from 'typescript'

/** The sources import each other by the compiled name (`./x.js`); the file beside it is `./x.ts`. */
export async function resolve(specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context)
  } catch (error) {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !/^\.\.?\/.*\.js$/.test(specifier)) throw error
    return nextResolve(`${specifier.slice(0, -3)}.ts`, context)
  }
}

export async function load(url, context, nextLoad) {
  if (!url.endsWith('.ts')) return nextLoad(url, context)
  const fileName = fileURLToPath(url)
  const compilerOptions = {module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022}
  const {outputText} = ts.transpileModule(await readFile(fileName, 'utf8'), {compilerOptions, fileName})
  return {format: 'module', shortCircuit: true, source: outputText}
}

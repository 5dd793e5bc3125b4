import {lstat, readdir, readFile, realpath, stat} from 'node:fs/promises'
import {join, relative, resolve, sep} from 'node:path'

import {FrontMatterError, parseFrontMatter} from '@hanzo-dev/sdk/front-matter'

import {PROJECT_DIR} from '../core/config/locate.js'
import {skillNames, SKILLS_DIR} from '../core/config/trust.js'

/** The file that makes a folder a skill. */
export const SKILL_FILE = 'SKILL.md'

/** Far above any hand-written skill file: past it, the file is refused rather than sent to the model. */
export const MAX_SKILL_FILE_BYTES = 256 * 1024

/** Files a skill's listing names: past this the model is told how many more there are. */
const MAX_LISTED_FILES = 200

const SKILL_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/i

/** Each description is in every request's system prompt: a line, not the skill itself. */
const MAX_DESCRIPTION = 1024

/** A skill's name and description, what the model is told of it before it loads one. */
export interface Skill {
  name: string
  description: string
  /** Its folder, canonical: the skill tool reads nothing outside it. */
  dir: string
  /** `project`, `user`, or `plugin NAME`: what `/skills` says it came from. */
  source: string
}

export interface SkillSources {
  projectRoot: string
  configDir: string
  /** The project's files left out for want of trust (LoadedConfig.trust.inert.agents): their skills are not loaded. */
  untrusted: readonly string[]
  /** The skill folders plugins contribute, by plugin. */
  plugins: ReadonlyArray<{plugin: string; dirs: readonly string[]}>
}

/**
 * The session's skills: each folder of the project's `.hanzo/skills` (once trusted: trust.ts
 * covers every file in it), then of the user's skills directory, then those plugins contribute.
 * Only SKILL.md's front matter is read here; the body and the other files wait for the skill tool.
 * A name already taken keeps the first; a bad folder is a warning naming its SKILL.md.
 */
export async function discoverSkills(sources: SkillSources): Promise<{skills: Skill[]; warnings: string[]}> {
  const untrusted = new Set(skillNames(sources.untrusted))
  const candidates: Array<{dir: string; source: string}> = [
    ...(await subfolders(join(sources.projectRoot, PROJECT_DIR, SKILLS_DIR)))
      .filter((name) => !untrusted.has(name))
      .map((name) => ({dir: join(sources.projectRoot, PROJECT_DIR, SKILLS_DIR, name), source: 'project'})),
    ...(await subfolders(join(sources.configDir, SKILLS_DIR), true)).map((name) => ({
      dir: join(sources.configDir, SKILLS_DIR, name),
      source: 'user',
    })),
    ...sources.plugins.flatMap(({dirs, plugin}) => dirs.map((dir) => ({dir, source: `plugin ${plugin}`}))),
  ]
  const skills: Skill[] = []
  const warnings: string[] = []
  for (const {dir, source} of candidates) {
    const file = join(dir, SKILL_FILE)
    const found = await readSkillHeader(dir).catch((error: unknown) => (error as Error).message)
    if (typeof found === 'string') warnings.push(`${file}: ${found}; skill skipped`)
    else if (skills.some((skill) => skill.name === found.name))
      warnings.push(`${file}: a skill named "${found.name}" is already loaded; skill skipped`)
    else skills.push({...found, source})
  }

  return {skills, warnings}
}

/** A skill's SKILL.md split into its fields and its body; why not, thrown as an Error. */
export async function readSkillFile(dir: string): Promise<{name: string; description: string; body: string}> {
  const file = join(dir, SKILL_FILE)
  const stats = await lstat(file).catch(() => undefined)
  if (!stats?.isFile()) throw new Error(`there is no ${SKILL_FILE} file`)
  if (stats.size > MAX_SKILL_FILE_BYTES) throw new Error(`it is larger than ${MAX_SKILL_FILE_BYTES} bytes`)
  let parsed
  try {
    parsed = parseFrontMatter(await readFile(file, 'utf8'))
  } catch (error) {
    if (!(error instanceof FrontMatterError)) throw error
    throw new Error(`${error.message}${error.line ? ` (line ${error.line})` : ''}`)
  }

  const field = (key: string) => (typeof parsed.fields[key] === 'string' ? (parsed.fields[key] as string).trim() : '')
  const name = field('name') || (dir.split(sep).pop() ?? '')
  if (!SKILL_NAME.test(name))
    throw new Error(`the name "${name}" is not a skill name (letters, digits, "-" or "_", at most 64)`)
  const description = field('description')
  if (description === '') throw new Error('its front matter has no description')
  if (description.length > MAX_DESCRIPTION)
    throw new Error(`its description is longer than ${MAX_DESCRIPTION} characters (the rest belongs in the body)`)
  return {body: parsed.body.trim(), description, name}
}

/** The files of a skill's folder besides SKILL.md, relative to it, symbolic links not followed. */
export async function skillFiles(dir: string): Promise<{files: string[]; more: number}> {
  const files: string[] = []
  let more = 0
  const walk = async (folder: string): Promise<void> => {
    for (const entry of (await readdir(folder, {withFileTypes: true})).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(folder, entry.name)
      if (entry.isDirectory()) await walk(path)
      else if (path !== join(dir, SKILL_FILE)) {
        if (files.length < MAX_LISTED_FILES) files.push(relative(dir, path).split(sep).join('/'))
        else more++
      }
    }
  }

  await walk(dir)
  return {files, more}
}

/**
 * The canonical path of `file` in a skill's folder, or why it is refused: `..`, an absolute
 * path and a symbolic link that leads out of the folder are all outside it.
 */
export async function skillFilePath(dir: string, file: string): Promise<string | {refused: string}> {
  const root = await realpath(dir)
  const path = await realpath(resolve(root, file)).catch(() => undefined)
  if (path === undefined) return {refused: `there is no file ${file} in this skill`}
  if (!path.startsWith(root + sep)) return {refused: `${file} is outside the skill's folder`}
  return path
}

async function readSkillHeader(dir: string): Promise<Omit<Skill, 'source'>> {
  const {description, name} = await readSkillFile(dir)
  return {description, dir: await realpath(dir), name}
}

/**
 * The folders in `dir`. A link to one counts only with `followLinks` (the user's own directory):
 * in a project, what a link leads to is outside what the trust digest covers.
 */
async function subfolders(dir: string, followLinks = false): Promise<string[]> {
  const entries = await readdir(dir, {withFileTypes: true}).catch(() => [])
  const folders: string[] = []
  for (const entry of entries) {
    const linked = followLinks && entry.isSymbolicLink() && (await stat(join(dir, entry.name)).catch(() => undefined))
    if (entry.isDirectory() || (linked && linked.isDirectory())) folders.push(entry.name)
  }

  return folders.sort()
}

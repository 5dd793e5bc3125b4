import {lstat, readFile} from 'node:fs/promises'

import {type ToolDefinition, toolError, toolOk} from '@hanzo-dev/sdk'

import {MAX_SKILL_FILE_BYTES, readSkillFile, type Skill, skillFilePath, skillFiles} from '../skills.js'
import {objectSchema} from './input-schema.js'

export type SkillInput = {name: string; file?: string}

/**
 * `skill`: loads one of the skills the system prompt lists, its SKILL.md body and the names of
 * its other files, or one of those files. Only files inside that skill's folder are read (paths
 * canonicalized, so neither `..` nor a symbolic link leads out): a user's or a plugin's skill
 * lies outside the workspace, and the fs tools stay confined to it. It changes nothing.
 */
export function skillTool(skills: readonly Skill[]): ToolDefinition<SkillInput> {
  const names = () => skills.map((skill) => skill.name).join(', ')
  return {
    name: 'skill',
    aliases: ['Skill'],
    description: [
      'Load a skill listed under "Skills" in the system prompt: returns its instructions and the files that come with it.',
      'Call it when a task matches a skill\'s description, before doing the task; with "file", returns one of those files.',
    ].join(' '),
    inputSchema: objectSchema(
      {
        file: {
          description: "A file of the skill, as its listing names it (relative to the skill's folder).",
          type: 'string',
        },
        name: {description: 'The skill name, as listed.', type: 'string'},
      },
      ['name'],
    ),
    mutating: false,
    kind: 'read',
    describe: ({file, name}) => (file ? `${name}: ${file}` : name),
    async execute({file, name}) {
      const skill = skills.find((candidate) => candidate.name === name)
      if (!skill) return toolError(`There is no skill "${name}"; the skills are: ${names()}`)
      try {
        return file === undefined ? toolOk(await instructions(skill)) : await skillFile(skill, file)
      } catch (error) {
        return toolError(`Cannot load skill "${name}": ${(error as Error).message}`)
      }
    },
  }
}

async function instructions(skill: Skill): Promise<string> {
  const {body} = await readSkillFile(skill.dir)
  const {files, more} = await skillFiles(skill.dir)
  if (files.length === 0) return body
  return [
    body,
    '',
    `Files of this skill (read one with skill {"name": "${skill.name}", "file": PATH}):`,
    ...files.map((file) => `- ${file}`),
    ...(more > 0 ? [`... and ${more} more`] : []),
  ].join('\n')
}

async function skillFile(skill: Skill, file: string) {
  const path = await skillFilePath(skill.dir, file)
  if (typeof path !== 'string') return toolError(`Cannot read ${file}: ${path.refused}`)
  const stats = await lstat(path)
  if (!stats.isFile()) return toolError(`Cannot read ${file}: it is not a file`)
  if (stats.size > MAX_SKILL_FILE_BYTES)
    return toolError(`Cannot read ${file}: it is larger than ${MAX_SKILL_FILE_BYTES} bytes`)
  return toolOk(await readFile(path, 'utf8'))
}

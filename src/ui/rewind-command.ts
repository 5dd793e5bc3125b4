import {readFile} from 'node:fs/promises'
import {join} from 'node:path'

import type {FileChange, SlashCommandResult} from '@hanzo-dev/sdk'
import {oneLine} from '@hanzo-dev/sdk/terminal-text'
import type {ChalkInstance} from 'chalk'

import {describePlan} from '../adapters/checkpoints/describe.js'
import {applyRewind, planRewind, type RewindPlan} from '../adapters/checkpoints/rewind.js'
import {CheckpointStore, type CodeDiff} from '../adapters/checkpoints/store.js'
import {UndoStack} from '../adapters/checkpoints/undo.js'
import {changePreview} from '../adapters/prompt/change-preview.js'
import {capped} from '../adapters/prompt/diff-view.js'
import {SessionStore} from '../adapters/session-store.js'
import {UserError} from '../core/errors.js'
import type {ChatFacts} from './builtin-commands.js'
import type {ChatSession} from './chat-session.js'
import type {KeyOption} from './key-choice.js'

/** Lines of diff shown before a rewind's question, all files together; the rest is counted. */
const PREVIEW_LINES = 60
/** Prompts `/rewind` offers on keys 1-9; older ones by `/rewind N`. */
const PICKABLE = 9
const NOT_SAVED = 'a session is saved once its first prompt is sent.'

type What = {code: boolean; conversation: boolean}

const BOTH: KeyOption<What> = {
  key: 'b',
  label: 'both: the code and the conversation',
  value: {code: true, conversation: true},
}
const CODE: KeyOption<What> = {key: 'c', label: 'the code only', value: {code: true, conversation: false}}
const CONVERSATION: KeyOption<What> = {
  key: 'v',
  label: 'the conversation only',
  value: {code: false, conversation: true},
}

/**
 * The chat's `/rewind`, `/undo` and `/redo`: pick, preview, ask, then the checkpoints' own rewind
 * (adapters/checkpoints). After the conversation went back, the session is reopened so the next
 * prompt sends the shorter history, and the prompt taken back is put into the input to edit.
 */
export class ChatRewind {
  private readonly stores: {sessions: SessionStore; checkpoints: CheckpointStore}
  private readonly undos: UndoStack
  private chat?: ChatSession

  constructor(private readonly facts: ChatFacts) {
    this.stores = {checkpoints: CheckpointStore.at(facts.dataDir), sessions: SessionStore.at(facts.dataDir)}
    this.undos = new UndoStack(this.stores, (message) => this.chat?.say(`Warning: ${message}`))
  }

  async rewind(argv: string[], chat: ChatSession): Promise<SlashCommandResult> {
    this.chat = chat
    if (argv[0] !== undefined && !/^\d+$/.test(argv[0]))
      throw new UserError(`/rewind takes a prompt number, not ${oneLine(argv[0], 40)}`)
    const id = this.facts.session.id
    if (!(await this.stores.sessions.has(id))) return {message: `Nothing to rewind yet: ${NOT_SAVED}`}
    const to = argv[0] === undefined ? await this.pick(id, chat) : Number(argv[0])
    if (to === undefined) return {message: 'Nothing rewound.'}
    const plan = await planRewind(this.stores, id, to).catch((error: unknown) => {
      // The headless command's hint does not fit here: the message alone says which numbers there are.
      throw error instanceof UserError ? new Error(error.message) : error
    })
    chat.print((await this.preview(plan, chat)).join('\n'))
    const options = plan.checkpoints ? [BOTH, CODE, CONVERSATION] : [CONVERSATION]
    if (!plan.checkpoints)
      chat.say('No checkpoints (this session changed no file, or they were pruned): only the conversation goes back.')
    const what = await chat.ask(`Rewind to before prompt ${plan.to}?`, options)
    if (!what) return {message: 'Nothing rewound.'}
    const done = await applyRewind(this.stores, plan, what, (message) => chat.say(`Warning: ${message}`))
    this.undos.clear()
    const parts = [
      ...(what.code ? [`the code (${files(changed(done))} put back)`] : []),
      ...(what.conversation ? [`the conversation (${plan.messages.before} messages)`] : []),
    ]
    if (what.conversation) await this.carryOn(plan, chat)
    return {message: `Rewound ${parts.join(' and ')} to before prompt ${plan.to}.`}
  }

  async undo(chat: ChatSession): Promise<SlashCommandResult> {
    this.chat = chat
    const id = this.facts.session.id
    if (!(await this.stores.sessions.has(id))) return {message: `Nothing to undo yet: ${NOT_SAVED}`}
    const plan = await this.undos.plan(id)
    if (!plan) return {message: 'Nothing to undo: every prompt of this session is undone.'}
    if (changed(plan.code) > 0) {
      chat.print((await this.preview(plan, chat)).join('\n'))
      const yes = await chat.ask(`Undo prompt ${plan.to}: its changes and the conversation?`, [
        {key: 'y', label: 'yes, undo it', value: true},
      ])
      if (!yes) return {message: 'Nothing undone.'}
    }

    const done = await this.undos.undo(plan)
    await this.carryOn(plan, chat)
    return {
      message: `Undid prompt ${plan.to}: ${files(changed(done))} put back, the conversation back to ${plan.messages.before} messages. /redo redoes it.`,
    }
  }

  async redo(chat: ChatSession): Promise<SlashCommandResult> {
    this.chat = chat
    const redone = await this.undos.redo(this.facts.session.id)
    if (typeof redone === 'string') return {message: redone}
    await this.facts.reopen({})
    return {
      message: `Redid prompt ${redone.prompt}: ${files(redone.files)} and the conversation put back.`,
    }
  }

  /** The newest prompts on keys 1-9; the number of the one picked. */
  private async pick(id: string, chat: ChatSession): Promise<number | undefined> {
    const {checkpoints, prompts} = await planRewind(this.stores, id)
    const counts = checkpoints?.changedByPrompt() ?? new Map<number, number>()
    const newest = prompts.slice(-PICKABLE).reverse()
    const older = prompts.length > PICKABLE ? ` (older ones: /rewind N, 1 to ${prompts.length - PICKABLE})` : ''
    return chat.ask(
      `Rewind to before which prompt?${older}`,
      newest.map((prompt, index) => {
        const text = prompt.text === '' ? '(no prompt text)' : oneLine(prompt.text.split('\n')[0], 60)
        return {
          key: String(index + 1),
          label: `#${prompt.index}  ${text}  · ${files(counts.get(prompt.index) ?? 0)} changed`,
          value: prompt.index,
        }
      }),
    )
  }

  /** The plan's lines, then a short diff of each file it would restore. */
  private async preview(plan: RewindPlan, chat: ChatSession): Promise<string[]> {
    const {style} = chat
    const lines = describePlan(plan, {code: true, conversation: true})
    const {checkpoints} = plan
    if (!checkpoints || plan.code.modified.length === 0) return lines
    const target = checkpoints.target(plan.to)
    const diffs: string[] = []
    for (const path of plan.code.modified) {
      const change: FileChange = {
        after: (await checkpoints.blobs.get(target.get(path)!)).toString('utf8'),
        before: await readFile(join(checkpoints.root, path), 'utf8'),
        path,
      }
      diffs.push(
        `  ${style.bold(oneLine(path))}`,
        ...changePreview([change], style, chat.width - 2).map((l) => `  ${l}`),
      )
    }

    return [...lines, ...cappedDiff(diffs, style)]
  }

  /** The conversation went back: the session is reopened on it, and the prompt taken back is put into the input. */
  private async carryOn(plan: RewindPlan, chat: ChatSession): Promise<void> {
    await this.facts.reopen({})
    chat.fillPrompt(plan.prompts[plan.to - 1].text)
  }
}

function changed({created, deleted, modified}: CodeDiff): number {
  return created.length + deleted.length + modified.length
}

function files(count: number): string {
  return `${count} file${count === 1 ? '' : 's'}`
}

function cappedDiff(lines: string[], style: ChalkInstance): string[] {
  const shown = capped(lines, PREVIEW_LINES)
  // capped's own count line, dimmed as the per-file counts are.
  if (shown.length > PREVIEW_LINES) shown[PREVIEW_LINES] = style.dim(`  ${shown[PREVIEW_LINES]}`)
  return shown
}

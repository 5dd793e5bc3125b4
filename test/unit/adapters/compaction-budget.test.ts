import {describe, expect, it} from 'vitest'

import {compactionBudget, noBudgetWarning} from '../../../src/adapters/agent-session/compaction-budget.js'

/** Issue 41 item 4: compaction is on by default, at the model's real context window. */
describe('compactionBudget', () => {
  it("is the model's context window from the catalog when max_tokens is unset", async () => {
    expect(await compactionBudget({}, 'anthropic', 'claude-sonnet-4-20250514')).toEqual({
      source: 'catalog',
      tokens: 200_000,
    })
    expect(await compactionBudget({}, 'openai', 'gpt-4o')).toEqual({source: 'catalog', tokens: 128_000})
  })

  it('is max_tokens when set, for a known model as for an unknown one', async () => {
    expect(await compactionBudget({max_tokens: 5000}, 'anthropic', 'claude-sonnet-4-20250514')).toEqual({
      source: 'max_tokens',
      tokens: 5000,
    })
    expect(await compactionBudget({max_tokens: 5000}, 'ollama', 'qwen3:8b')).toEqual({
      source: 'max_tokens',
      tokens: 5000,
    })
  })

  it("is the pricing setting's context_window for a private model, below max_tokens", async () => {
    const pricing = {'my-model': {context_window: 32_000, input: 1, output: 2}}
    expect(await compactionBudget({pricing}, 'ollama', 'my-model')).toEqual({source: 'pricing', tokens: 32_000})
    expect(await compactionBudget({max_tokens: 5000, pricing}, 'ollama', 'my-model')).toEqual({
      source: 'max_tokens',
      tokens: 5000,
    })
  })

  it('is none for a model the catalog does not know: no guess', async () => {
    expect(await compactionBudget({}, 'ollama', 'qwen3:8b')).toEqual({source: 'unknown'})
    expect(noBudgetWarning('ollama', 'qwen3:8b', 40_000)).toContain('no automatic compaction')
    expect(noBudgetWarning('ollama', 'qwen3:8b', 40_000)).toContain('Set max_tokens')
  })

  it('is none with auto_compact: false, whatever else is set', async () => {
    expect(await compactionBudget({auto_compact: false}, 'openai', 'gpt-4o')).toEqual({source: 'off'})
    expect(await compactionBudget({auto_compact: false, max_tokens: 5000}, 'openai', 'gpt-4o')).toEqual({
      source: 'off',
    })
  })

  it('defuses a model name that carries terminal escapes', () => {
    expect(noBudgetWarning('x', 'evil\u001B]0;owned\u0007', 1)).not.toContain('\u001B')
  })
})

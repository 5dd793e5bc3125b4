import {describe, expect, it} from 'vitest'

import type {ImagePart} from '@hanzo-dev/sdk'

import {imageMediaType} from '../../../src/adapters/tools/image-file.js'
import {SessionCompactor} from '../../../src/core/agent/compaction.js'
import {modelTakesImages} from '../../../src/core/agent/model-images.js'
import {historyTokens} from '../../../src/core/agent/token-count.js'
import type {Message} from '../../../src/core/agent/types.js'
import {PastedTexts} from '../../../src/ui/pasted-text.js'

const image: ImagePart = {data: 'iVBORw0KGgo=', mediaType: 'image/png', name: 'shot.png', type: 'image'}

describe('images', () => {
  it('knows a picture by its first bytes, whatever its name', () => {
    const bytes = (...values: number[]) => Uint8Array.from(values)
    const ascii = (text: string) => Uint8Array.from(Buffer.from(text, 'latin1'))
    expect(imageMediaType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0))).toBe('image/png')
    expect(imageMediaType(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe('image/jpeg')
    expect(imageMediaType(ascii('GIF89a...'))).toBe('image/gif')
    expect(imageMediaType(ascii('RIFF\u0010\u0000\u0000\u0000WEBPVP8 '))).toBe('image/webp')
    expect(imageMediaType(ascii('RIFF\u0010\u0000\u0000\u0000WAVEfmt '))).toBeUndefined()
    expect(imageMediaType(ascii('\u0089PNG but text'))).toBeUndefined()
    expect(imageMediaType(bytes())).toBeUndefined()
  })

  it.each([
    ['claude-sonnet-4-5', true],
    ['gpt-4o-mini', true],
    ['gpt-4.1', true],
    ['gpt-5-codex', true],
    ['o3', true],
    ['o4-mini', true],
    ['gemini-2.5-pro', true],
    ['anthropic/claude-opus-4', true],
    ['llava:13b', true],
    ['gpt-3.5-turbo', false],
    ['o1-preview', false],
    ['o3-mini', false],
    ['o3-pro', true],
    ['qwen3:8b', false],
    ['deepseek-r1:7b', false],
    ['fake-model', false],
  ])('%s takes images: %s', (model, takes) => {
    expect(modelTakesImages(model)).toBe(takes)
  })

  it('counts an image as a fixed number of tokens, not by its base64', () => {
    const text: Message = {content: 'look', role: 'user'}
    const withImage: Message = {content: 'look', images: [{...image, data: 'A'.repeat(400_000)}], role: 'user'}
    expect(historyTokens([withImage]) - historyTokens([text])).toBe(1600)
  })

  it('drops the images of the messages a compaction keeps, saying which were there', async () => {
    const history: Message[] = [
      {content: 'first', role: 'user'},
      {content: 'ok', role: 'assistant', toolCalls: []},
      {content: 'look at this', images: [image], role: 'user'},
      {content: '', role: 'assistant', toolCalls: [{arguments: '{}', id: 'c1', input: {}, name: 'fs_read'}]},
      {
        content: 'shot.png: image/png image',
        images: [image],
        isError: false,
        role: 'tool',
        toolCallId: 'c1',
        toolName: 'fs_read',
      },
      {content: 'A red dot.', role: 'assistant', toolCalls: []},
    ]
    const result = await new SessionCompactor({maxTokens: 10, reserveRecent: 2}).compact(history)
    expect(result.strategy).toBe('truncation')
    expect(JSON.stringify(result.messages)).not.toContain(image.data)
    const tool = result.messages.find((message) => message.role === 'tool')!
    expect(tool.content).toBe(
      'shot.png: image/png image\n[image shot.png was shown here; removed by compaction, read it again to see it]',
    )
  })

  it('turns a pasted image path into [Image #N], and text that ends in .png into text', () => {
    const pastes = new PastedTexts()
    const paste = (text: string) => {
      pastes.start()
      pastes.add(text)
      return pastes.end()
    }

    expect(paste('/home/me/Desktop/Screen\\ Shot.png')).toBe('[Image #1]')
    expect(paste("'/tmp/two words.JPG'")).toBe('[Image #2]')
    expect(paste('look at a.png')).toBe('look at a.png')
    expect(paste('notes.txt')).toBe('notes.txt')
    expect(pastes.imagesIn('[Image #2] then [Image #1] and [Image #9]')).toEqual([
      {label: '[Image #2]', path: '/tmp/two words.JPG'},
      {label: '[Image #1]', path: '/home/me/Desktop/Screen Shot.png'},
    ])
  })
})

import type {FileHandle} from 'node:fs/promises'

import {type ImageMediaType, type ToolResult, toolOk} from '@hanzo-dev/sdk/tools'

import {readUpTo} from './text-file.js'
import {ToolFailure} from './tool-failure.js'

/**
 * The largest picture fs_read hands the model. Anthropic refuses images over 5 MB, OpenAI over
 * 20 MB; base64 makes them a third larger on the wire and in the saved session.
 */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024

/** Enough of a file's start to tell its format by: WebP's marker ends at byte 12. */
const SIGNATURE_BYTES = 12

/** A format by its leading bytes: a `.png` that is text is read as text, a picture named `.dat` as a picture. */
export function imageMediaType(head: Uint8Array): ImageMediaType | undefined {
  const starts = (bytes: readonly number[], at = 0) => bytes.every((byte, i) => head[at + i] === byte)
  const ascii = (text: string, at = 0) => starts([...Buffer.from(text, 'latin1')], at)
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png'
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg'
  if (ascii('GIF87a') || ascii('GIF89a')) return 'image/gif'
  if (ascii('RIFF') && ascii('WEBP', 8)) return 'image/webp'
  return undefined
}

/** The file behind `handle` as an image result, or undefined when it is not a picture fs_read knows. */
export async function readImageFile(
  handle: FileHandle,
  size: number,
  display: string,
): Promise<ToolResult | undefined> {
  const head = Buffer.alloc(SIGNATURE_BYTES)
  const {bytesRead} = await handle.read(head, 0, SIGNATURE_BYTES, 0)
  const mediaType = imageMediaType(head.subarray(0, bytesRead))
  if (!mediaType) return undefined
  const bytes = await readUpTo(handle, IMAGE_MAX_BYTES, size)
  if (!bytes)
    throw new ToolFailure(
      `${display} is an image of ${size} bytes, more than the ${IMAGE_MAX_BYTES / 1024 / 1024} MB a model takes; make a smaller copy (downscale it, e.g. \`magick ${display} -resize 50% smaller.png\`) and read that`,
    )
  return {
    ...toolOk(`${display}: ${mediaType} image, ${bytes.length} bytes, attached for you to see.`),
    images: [{data: bytes.toString('base64'), mediaType, name: display, type: 'image'}],
  }
}

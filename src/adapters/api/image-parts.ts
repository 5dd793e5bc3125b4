import type {ImagePart} from '@hanzo-dev/sdk'

import type {Message} from '../../core/agent/types.js'

/** An image as the OpenAI APIs take it inline: a `data:` URL. */
export function imageDataUrl(image: ImagePart): string {
  return `data:${image.mediaType};base64,${image.data}`
}

/** What stands for a tool's images in its text where the wire format cannot carry them in the result. */
export function imagesFollow(images: readonly ImagePart[]): string {
  return `[${images.map((image) => image.name).join(', ')}: attached in the next message]`
}

/** The text of a user message with images: the user's own, or a line naming the tools' images. */
export function imageMessageText(text: string, images: readonly ImagePart[]): string {
  return text || `Images returned by the tool calls above: ${images.map((image) => image.name).join(', ')}`
}

/**
 * The OpenAI formats take images only in a user message, and a tool result must follow its call
 * with nothing between: each run of tool results is followed by one user message with their
 * images (as Codex's view_image and opencode do). `toWire` maps a message; `imageMessage` makes
 * the user message for the images gathered.
 */
export function withToolImages<T>(
  messages: readonly Message[],
  toWire: (message: Message) => T[],
  imageMessage: (images: ImagePart[]) => T,
): T[] {
  const out: T[] = []
  let pending: ImagePart[] = []
  for (const message of messages) {
    if (message.role !== 'tool' && pending.length > 0) {
      out.push(imageMessage(pending))
      pending = []
    }

    out.push(...toWire(message))
    if (message.role === 'tool' && message.images) pending.push(...message.images)
  }

  if (pending.length > 0) out.push(imageMessage(pending))
  return out
}

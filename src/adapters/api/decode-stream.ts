import type {StreamEvent} from '../../core/agent/types.js'
import {type SseFrame, SseFrameBuffer} from '../../core/protocol/sse-frame-buffer.js'
import {isFinal, type StreamDecoder} from './wire-api.js'

/** A body's chunks: a response body, or the fake model's scripted events. */
type Chunks = AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>

/**
 * The events of a streamed reply: the body's chunks through one `SseFrameBuffer` (per request,
 * HIP-301 §3) into the API's decoder. Reading stops at the reply's final event, even if the
 * server keeps the body open: what is left of it is the caller's to drain or close.
 */
export async function* decodeStream(chunks: Chunks, decoder: StreamDecoder): AsyncGenerator<StreamEvent> {
  for await (const frame of sseFrames(chunks)) {
    for (const event of decoder.frame(frame)) {
      yield event
      if (isFinal(event)) return
    }
  }

  yield* decoder.end()
}

async function* sseFrames(chunks: Chunks): AsyncGenerator<SseFrame> {
  const buffer = new SseFrameBuffer()
  for await (const chunk of chunks) yield* buffer.feed(chunk)
  yield* buffer.end()
}

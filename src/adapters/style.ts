import {Chalk, type ChalkInstance} from 'chalk'

/**
 * chalk 5 ignores NO_COLOR; this instance honours it, and turns colour off when the stream
 * is not a terminal (unless FORCE_COLOR asks for it).
 */
export function makeStyle(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env): ChalkInstance {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return new Chalk({level: 0})
  if (env.FORCE_COLOR !== undefined) return new Chalk()
  return new Chalk({level: stream.isTTY ? 1 : 0})
}

import {readFile, rm, stat} from 'node:fs/promises'
import {join} from 'node:path'

import type {CheckpointSettings} from './capture.js'
import {type CheckpointStore, names, SessionCheckpoints, sessionHolder} from './store.js'

const DAY_MS = 24 * 60 * 60 * 1000
/**
 * A blob no log names yet may be one a running session just stored (its scan before a command,
 * which a log names only once the command changed the file): younger ones are never removed.
 */
const BLOB_GRACE_MS = 60 * 60 * 1000

interface LogInfo {
  dir: string
  id: string
  modified: number
}

/**
 * Pruning at session start: the logs of sessions older than `keepDays` (by their last change),
 * then the oldest others while the blobs take more than `maxTotalMb`, then the blobs no log (and
 * no scan cache) names. A session some process has open (its lock) is never pruned.
 */
export async function pruneCheckpoints(
  store: CheckpointStore,
  settings: Pick<CheckpointSettings, 'keepDays' | 'maxTotalMb'>,
  now = Date.now(),
): Promise<{sessions: string[]; blobs: number}> {
  const logs: LogInfo[] = []
  for (const dir of await store.projectDirs()) {
    for (const name of await names(join(dir, 'sessions'))) {
      if (!name.endsWith('.jsonl')) continue
      const id = name.slice(0, -'.jsonl'.length)
      const info = await stat(join(dir, 'sessions', name)).catch(() => undefined)
      if (info && sessionHolder(dir, id) === undefined) logs.push({dir, id, modified: info.mtimeMs})
    }
  }

  const removed: string[] = []
  const remove = async (log: LogInfo) => {
    await rm(join(log.dir, 'sessions', `${log.id}.jsonl`), {force: true})
    removed.push(log.id)
  }

  for (const log of logs.filter((l) => now - l.modified > settings.keepDays * DAY_MS)) await remove(log)
  const left = logs.filter((log) => !removed.includes(log.id)).sort((a, b) => a.modified - b.modified)
  let total = await blobBytes(store)
  let blobs = 0
  while (total > settings.maxTotalMb * 1024 * 1024 && left.length > 0) {
    await remove(left.shift()!)
    const collected = await collectBlobs(store, now)
    blobs += collected.count
    total -= collected.bytes
  }

  if (removed.length > 0) blobs += (await collectBlobs(store, now)).count
  return {blobs, sessions: removed}
}

async function blobBytes(store: CheckpointStore): Promise<number> {
  let bytes = 0
  for (const {info} of await allBlobs(store)) bytes += info.size
  return bytes
}

/** Removes the blobs no log or scan cache names (past the grace time). */
async function collectBlobs(store: CheckpointStore, now: number): Promise<{count: number; bytes: number}> {
  let count = 0
  let bytes = 0
  const used = new Set<string>()
  for (const dir of await store.projectDirs()) {
    for (const name of await names(join(dir, 'sessions'))) {
      if (!name.endsWith('.jsonl')) continue
      const text = await readFile(join(dir, 'sessions', name), 'utf8').catch(() => '')
      for (const file of SessionCheckpoints.parse(dir, name, text).files)
        if (file.type === 'file' && file.blob) used.add(file.blob)
    }

    const cache = await readFile(join(dir, 'scan.json'), 'utf8').catch(() => '{}')
    for (const file of Object.values(JSON.parse(cache) as Record<string, {blob?: string}>))
      if (file.blob) used.add(file.blob)
  }

  for (const {hash, info, path} of await allBlobs(store)) {
    if (used.has(hash) || now - info.mtimeMs < BLOB_GRACE_MS) continue
    await rm(path, {force: true})
    count++
    bytes += info.size
  }

  return {bytes, count}
}

async function allBlobs(store: CheckpointStore) {
  const found = []
  for (const dir of await store.projectDirs()) {
    const objects = join(dir, 'objects')
    for (const prefix of await names(objects)) {
      for (const rest of await names(join(objects, prefix))) {
        const path = join(objects, prefix, rest)
        const info = await stat(path).catch(() => undefined)
        if (info) found.push({hash: `${prefix}${rest}`, info, path})
      }
    }
  }

  return found
}

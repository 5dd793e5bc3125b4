import {closeSync, constants, fstatSync, openSync, readSync, type Stats} from 'node:fs'
import {type FileHandle, open} from 'node:fs/promises'

import {ToolFailure} from './tool-failure.js'

/** How much of a file is looked at to tell text from binary (what git and grep look at too). */
export const BINARY_SNIFF_BYTES = 8192

/** A NUL byte early in a file means binary: text encodings the tools handle never contain one. */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)
}

/**
 * A file with more than one hard link: its other names may be outside the workspace (a link made
 * to `~/.ssh/id_ed25519` is inside by name only), and no check of the path can tell, so its
 * content is not opened, as the sandbox does not write such a file.
 */
export class HardLinkedFile extends ToolFailure {
  constructor(display: string, links: number) {
    super(
      `${display} has ${links} hard links: the same file has other names, maybe outside the workspace, so the file tools do not open it`,
    )
    this.name = 'HardLinkedFile'
  }
}

/**
 * An open handle on the regular file at `absolute`, which has no other hard link. Opened
 * non-blocking and checked through the handle, so a FIFO or device cannot hang the tool and
 * nothing is swapped in between check and read. `display` names the file in the error the model reads.
 */
export async function openRegularFile(absolute: string, display: string): Promise<{handle: FileHandle; size: number}> {
  const handle = await open(absolute, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
  try {
    return {handle, size: checkRegular(await handle.stat(), display)}
  } catch (error) {
    await handle.close()
    throw error
  }
}

/** {@link openRegularFile} without a promise per step, for searches opening thousands of small files: a descriptor to close. */
export function openRegularFileSync(absolute: string, display: string): {fd: number; size: number} {
  const fd = openSync(absolute, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
  try {
    return {fd, size: checkRegular(fstatSync(fd), display)}
  } catch (error) {
    closeSync(fd)
    throw error
  }
}

/** The size of the file `info` describes, or a {@link ToolFailure} saying why it may not be read. */
function checkRegular(info: Stats, display: string): number {
  if (info.isDirectory()) throw new ToolFailure(`${display} is a directory; use fs_list to see its entries`)
  if (!info.isFile())
    throw new ToolFailure(`${display} is not a regular file (a device, socket or pipe); it cannot be read as text`)
  if (info.nlink > 1) throw new HardLinkedFile(display, info.nlink)
  return info.size
}

/**
 * The first `bytes` bytes of the regular file behind `fd` (fewer at end of file), read into
 * `into` when given (at least `bytes` long). One read: from a regular file it returns fewer bytes
 * than asked only at end of file, so asking again would cost a system call per file for nothing.
 */
export function readHeadSync(fd: number, bytes: number, into?: Buffer): Buffer {
  const buffer = into ?? Buffer.allocUnsafe(bytes)
  return buffer.subarray(0, bytes === 0 ? 0 : readSync(fd, buffer, 0, bytes, 0))
}

/**
 * The whole content behind `handle`, or `undefined` when it is larger than `maxBytes`. The buffer
 * starts at `sizeHint` (the size fstat gave) but the file may grow meanwhile, so it reads until
 * end of file, never past one byte over the limit.
 */
export async function readUpTo(handle: FileHandle, maxBytes: number, sizeHint: number): Promise<Buffer | undefined> {
  // Unzeroed memory is fine: only the bytes read are used.
  let buffer = Buffer.allocUnsafe(Math.min(sizeHint, maxBytes) + 1)
  let length = 0
  for (;;) {
    if (length === buffer.length) {
      if (length > maxBytes) return undefined
      const grown = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes + 1))
      buffer.copy(grown, 0, 0, length)
      buffer = grown
    }

    const {bytesRead} = await handle.read(buffer, length, buffer.length - length, length)
    if (bytesRead === 0) break
    length += bytesRead
  }

  return length > maxBytes ? undefined : buffer.subarray(0, length)
}

/** {@link readUpTo} on a descriptor, synchronously. */
export function readUpToSync(fd: number, maxBytes: number, sizeHint: number): Buffer | undefined {
  let wanted = Math.min(sizeHint, maxBytes) + 1
  for (;;) {
    const bytes = readHeadSync(fd, wanted)
    if (bytes.length > maxBytes) return undefined
    // Fewer bytes than asked for: end of file. As many: the file grew meanwhile, read on.
    if (bytes.length < wanted) return bytes
    wanted = Math.min(wanted * 2, maxBytes + 1)
  }
}

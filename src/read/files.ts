// Files route-gate reads and writes for the user (manifests, dumps, the previous state, the report, the
// monitor's state). Only regular files, found after resolving symlinks: a FIFO would hang the run and
// /dev/zero would never end, and a pull request can commit a symlink to either. Reads stop at a byte
// cap the error names. Files written are private to the user and never written through a symlink. A
// path that cannot be used is the user's input to fix (exit 2), not a failed gate.
import {
  close,
  closeSync,
  constants,
  fchmod,
  fstat,
  lstat,
  open,
  openSync,
  read,
  realpath,
  rename,
  statSync,
  unlink,
  writeFile,
  type Stats
} from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { InputError } from '../runtime/errors.ts'

// node:fs/promises would load Node's readline, REPL history and file watchers with it (9 modules,
// a few ms of every start): the callback API does the same I/O
const openFile = promisify(open)
const statFile = promisify(fstat)
const readInto = promisify(read)
const lstatPath = promisify(lstat)
const chmodFile = promisify(fchmod)
const renameFile = promisify(rename)
const unlinkFile = promisify(unlink)
const realpathOf = promisify(realpath)
const writeWhole = promisify(writeFile)
const closeFile = promisify(close)

export const MAX_FILE_BYTES = 128 * 1024 * 1024

const MIB = 1024 * 1024

function kindOf(info: Stats): string {
  if (info.isDirectory()) return 'a directory'
  if (info.isFIFO()) return 'a FIFO'
  if (info.isCharacterDevice()) return 'a character device'
  if (info.isBlockDevice()) return 'a block device'
  if (info.isSocket()) return 'a socket'
  return 'not a file'
}

function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? String(error)
}

/** The stats of a regular file, or the error that names what it is instead. */
function regularFile(info: Stats, label: string): Stats {
  if (!info.isFile()) throw new InputError(`${label}: ${kindOf(info)}, not a regular file`)
  return info
}

function unreadable(error: unknown, label: string): InputError {
  const code = codeOf(error)
  return new InputError(
    `${label}: ${code === 'ENOENT' ? 'no such file' : `cannot read it (${code})`}`
  )
}

/** `size` as its stats say, or undefined when reading found more than they said. */
function tooLarge(label: string, maxBytes: number, size?: number): InputError {
  const found = size === undefined ? `more than ${maxBytes} bytes` : `${size} bytes`
  return new InputError(`${label}: ${found} is too large (at most ${maxBytes / MIB} MiB)`)
}

/**
 * Refuses, before another library reads it synchronously (a kubeconfig and the certificate files it
 * names), what is no regular file, is over `maxBytes` or cannot be opened for reading. Stat comes
 * first, so a FIFO is refused before anything opens it and waits for a writer.
 */
export function checkRegularFile(file: string, label: string, maxBytes = MAX_FILE_BYTES): void {
  let info: Stats
  try {
    info = statSync(file)
  } catch (error) {
    throw unreadable(error, label)
  }
  if (regularFile(info, label).size > maxBytes) throw tooLarge(label, maxBytes, info.size)
  try {
    // stat succeeds on a file its mode lets nobody but the owner read
    closeSync(openSync(file, constants.O_RDONLY | constants.O_NONBLOCK))
  } catch (error) {
    throw unreadable(error, label)
  }
}

/**
 * The bytes of a regular file, at most `maxBytes`. `label` starts every error ("deploy/web.yaml",
 * `Invalid previous "state.json"`). O_NONBLOCK: opening a FIFO must not wait for a writer.
 */
export async function readUserFile(
  file: string,
  label: string,
  maxBytes = MAX_FILE_BYTES
): Promise<Buffer> {
  let fd: number
  try {
    fd = await openFile(file, constants.O_RDONLY | constants.O_NONBLOCK)
  } catch (error) {
    throw unreadable(error, label)
  }
  try {
    const info = regularFile(await statFile(fd), label)
    if (info.size > maxBytes) throw tooLarge(label, maxBytes, info.size)
    // the size can be wrong (a file still growing, /proc): read at most one byte past the cap. Read
    // in place, growing only when the file outgrows its size: a dump of 5,000 Routes is megabytes,
    // and copying each read and then joining the copies cost more than reading
    let buffer = Buffer.alloc(Math.min(maxBytes + 1, Math.max(info.size + 1, 64 * 1024)))
    let total = 0
    for (;;) {
      if (total === buffer.length) {
        const grown = Buffer.alloc(Math.min(maxBytes + 1, buffer.length * 2))
        buffer.copy(grown, 0, 0, total)
        buffer = grown
      }
      const { bytesRead } = await readInto(fd, buffer, total, buffer.length - total, null)
      if (bytesRead === 0) break
      total += bytesRead
      if (total > maxBytes) throw tooLarge(label, maxBytes)
    }
    return buffer.subarray(0, total)
  } finally {
    await closeFile(fd)
  }
}

/** Standard input, whole, at most `maxBytes` (`helm template … | route-gate …`). */
export async function readStdin(label: string, maxBytes = MAX_FILE_BYTES): Promise<Buffer> {
  const chunks: Buffer[] = []
  let total = 0
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    total += chunk.length
    if (total > maxBytes) throw tooLarge(label, maxBytes)
    chunks.push(chunk)
  }
  return Buffer.concat(chunks, total)
}

/**
 * Writes a private (0600) file: a new file beside the target, renamed over it, so nothing is ever
 * written through what is at the path. A pull request can commit `report.json -> ~/.bashrc`: a
 * symlink, a FIFO, a device or a directory at the path is refused, and a relative path must stay in
 * `cwd` (the workspace) after its folder's symlinks are resolved, as a relative manifest must.
 */
export async function writeUserFile(
  file: string,
  text: string,
  input: string,
  cwd = process.cwd()
): Promise<void> {
  const label = `Invalid ${input} "${file}"`
  const target = path.resolve(cwd, file)
  await writableTarget(target, label)
  if (!path.isAbsolute(file)) await folderInside(target, cwd, label)
  // node:crypto is taken here, not imported: loading it costs every offline command ~3 ms of a
  // start-up held to 1.5x kubectl's, and only a written output needs it
  const { randomUUID } = process.getBuiltinModule('node:crypto')
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${randomUUID()}.tmp`)
  let fd: number
  try {
    fd = await openFile(temp, NEW_PRIVATE_FILE, 0o600)
  } catch (error) {
    throw new InputError(`${label}: cannot write it (${codeOf(error)})`)
  }
  try {
    await writeWhole(fd, text)
    // the umask can only take bits away; a replaced 0644 file must not keep its mode either
    await chmodFile(fd, 0o600)
    await closeFile(fd)
    fd = -1
    await renameFile(temp, target)
  } catch (error) {
    if (fd !== -1) await closeFile(fd).catch(() => undefined)
    await unlinkFile(temp).catch(() => undefined)
    throw new InputError(`${label}: cannot write it (${codeOf(error)})`)
  }
}

const NEW_PRIVATE_FILE =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW

/** What is at the path now, if anything, must be a regular file itself, never a link to one. */
async function writableTarget(target: string, label: string): Promise<void> {
  let info: Stats
  try {
    info = await lstatPath(target)
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return
    throw new InputError(`${label}: cannot write it (${codeOf(error)})`)
  }
  if (info.isSymbolicLink()) {
    throw new InputError(`${label}: a symbolic link; route-gate never writes through one`)
  }
  regularFile(info, label)
}

async function folderInside(target: string, cwd: string, label: string): Promise<void> {
  const workspace = await realpathOf(cwd).catch(() => path.resolve(cwd))
  const folder = await realpathOf(path.dirname(target)).catch((error: unknown) => {
    throw new InputError(`${label}: cannot write it (${codeOf(error)})`)
  })
  const relative = path.relative(workspace, folder)
  if (relative.startsWith('..') || path.isAbsolute(relative)) {
    throw new InputError(
      `${label}: its folder resolves to ${folder}, outside the workspace ${cwd}; give an absolute path to write outside it`
    )
  }
}

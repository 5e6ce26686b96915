// Reading and writing the user's files: only regular files after symlinks are resolved, relative
// manifests inside the workspace, byte caps the error names, FIFOs refused at once (no hang), and API
// answers read up to a limit.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import {
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  stat,
  symlink,
  truncate,
  writeFile
} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { ApiRequester } from '../../../src/cluster/request.ts'
import { ClusterError, InputError } from '../../../src/runtime/errors.ts'
import { MAX_FILE_BYTES, readUserFile, writeUserFile } from '../../../src/read/files.ts'
import { expandManifestPaths, loadManifests } from '../../../src/read/manifests.ts'
import { readPreviousState } from '../../../src/jobs/monitor.ts'
import { authenticationOf, FakeApiServer, openStream } from '../../helpers/fake-apiserver.ts'

const ROUTE = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n'

async function failure(work: () => Promise<unknown>): Promise<Error> {
  return work().then(
    () => {
      throw new Error('did not fail')
    },
    (e: unknown) => e as Error
  )
}

let dir: string
let workspace: string
let fifo: string
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'route-gate-files-'))
  workspace = path.join(dir, 'workspace')
  await mkdir(path.join(workspace, 'deploy'), { recursive: true })
  await writeFile(path.join(dir, 'outside.yaml'), ROUTE)
  await writeFile(path.join(workspace, 'real.yaml'), ROUTE)
  await symlink('/dev/zero', path.join(workspace, 'deploy', 'zero.yaml'))
  await mkdir(path.join(workspace, 'escape'))
  await symlink('../../outside.yaml', path.join(workspace, 'escape', 'out.yaml'))
  await mkdir(path.join(workspace, 'inside'))
  await symlink('../real.yaml', path.join(workspace, 'inside', 'link.yaml'))
  fifo = path.join(dir, 'state.fifo')
  execFileSync('mkfifo', [fifo])
})

describe('reading user files', () => {
  it('refuses a FIFO at once instead of waiting for a writer', async () => {
    const error = await failure(() => readUserFile(fifo, 'x.yaml'))
    expect(error).toBeInstanceOf(InputError)
    expect(error.message).toBe('x.yaml: a FIFO, not a regular file')
  })

  it('refuses devices and directories', async () => {
    expect((await failure(() => readUserFile('/dev/zero', 'z'))).message).toBe(
      'z: a character device, not a regular file'
    )
    expect((await failure(() => readUserFile(dir, 'd'))).message).toBe(
      'd: a directory, not a regular file'
    )
  })

  it('names the byte cap, by the size on disk or by what was read', async () => {
    const file = path.join(dir, 'big.json')
    await writeFile(file, 'x'.repeat(4096))
    expect((await failure(() => readUserFile(file, 'big', 1024))).message).toBe(
      'big: 4096 bytes is too large (at most 0.0009765625 MiB)'
    )
    // /proc files claim size 0 and still hold bytes: the read itself stops at the cap
    const proc = await failure(() => readUserFile('/proc/self/maps', 'maps', 64))
    expect(proc.message).toMatch(/^maps: more than 64 bytes is too large/)
  })

  it('--previous: a FIFO and an oversized file are refused with the input named', async () => {
    expect((await failure(() => readPreviousState(fifo, '/'))).message).toBe(
      `Invalid previous "${fifo}": a FIFO, not a regular file`
    )
    const huge = path.join(dir, 'previous.json')
    await writeFile(huge, '')
    await truncate(huge, MAX_FILE_BYTES + 1)
    expect((await failure(() => readPreviousState(huge, '/'))).message).toBe(
      `Invalid previous "${huge}": 134217729 bytes is too large (at most 128 MiB)`
    )
  })
})

describe('writing user files', () => {
  it('refuses a FIFO (no reader: no hang), a device and a directory', async () => {
    expect((await failure(() => writeUserFile(fifo, '{}', 'state-out'))).message).toBe(
      `Invalid state-out "${fifo}": a FIFO, not a regular file`
    )
    expect((await failure(() => writeUserFile('/dev/null', '{}', 'report-file'))).message).toBe(
      'Invalid report-file "/dev/null": a character device, not a regular file'
    )
    expect((await failure(() => writeUserFile(dir, '{}', 'report-file'))).message).toBe(
      `Invalid report-file "${dir}": a directory, not a regular file`
    )
  })

  it('never writes through a symlink, dangling or not; what it points at is untouched', async () => {
    const victim = path.join(dir, 'bashrc')
    await writeFile(victim, 'export PATH=/usr/bin\n', { mode: 0o644 })
    const planted = path.join(workspace, 'report.json')
    await symlink(victim, planted)
    const dangling = path.join(workspace, 'state.json')
    await symlink(path.join(dir, 'not-yet'), dangling)
    for (const [file, input] of [
      [planted, 'report-file'],
      [dangling, 'state-out']
    ] as const) {
      const error = await failure(() => writeUserFile(file, '{}', input, workspace))
      expect(error).toBeInstanceOf(InputError)
      expect(error.message).toBe(
        `Invalid ${input} "${file}": a symbolic link; route-gate never writes through one`
      )
    }
    expect(await readFile(victim, 'utf8')).toBe('export PATH=/usr/bin\n')
    expect((await stat(victim)).mode & 0o777).toBe(0o644)
    expect(existsSync(path.join(dir, 'not-yet'))).toBe(false)
  })

  it('a replaced 0644 file ends 0600, and no temporary file is left beside it', async () => {
    const folder = await mkdtemp(path.join(dir, 'mode-'))
    const file = path.join(folder, 'report.json')
    await writeFile(file, 'old', { mode: 0o644 })
    await writeUserFile(file, '{"new":true}', 'report-file')
    expect(await readFile(file, 'utf8')).toBe('{"new":true}')
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    expect(await readdir(folder)).toEqual(['report.json'])
  })

  it('a relative path whose folder resolves outside the workspace is refused', async () => {
    await symlink(dir, path.join(workspace, 'out-dir'))
    for (const relative of ['out-dir/report.json', '../escaped.json']) {
      const error = await failure(() => writeUserFile(relative, '{}', 'report-file', workspace))
      expect(error).toBeInstanceOf(InputError)
      expect(error.message).toMatch(
        new RegExp(
          `^Invalid report-file "${relative.replace('.', '\\.')}": its folder resolves to .*, outside the workspace`
        )
      )
    }
    expect(existsSync(path.join(dir, 'report.json'))).toBe(false)
    expect(existsSync(path.join(dir, 'escaped.json'))).toBe(false)
    await mkdir(path.join(workspace, 'out'))
    await writeUserFile('out/report.json', '{}', 'report-file', workspace)
    expect(await readFile(path.join(workspace, 'out', 'report.json'), 'utf8')).toBe('{}')
  })

  it('replaces a regular file whole', async () => {
    const file = path.join(dir, 'report.json')
    await writeFile(file, 'x'.repeat(100))
    await writeUserFile(file, '{}', 'report-file')
    expect(await readFile(file, 'utf8')).toBe('{}')
  })
})

describe('manifest paths', () => {
  it('refuses a relative entry whose file resolves outside the workspace', async () => {
    const zero = await failure(() => expandManifestPaths(['deploy'], workspace))
    expect(zero.message).toBe(
      `manifests entry "deploy": deploy/zero.yaml resolves to /dev/zero, outside the workspace ${workspace}; give an absolute path to read a file outside it`
    )
    const out = await failure(() => expandManifestPaths(['escape/*.yaml'], workspace))
    expect(out.message).toMatch(
      /^manifests entry "escape\/\*\.yaml": escape\/out\.yaml resolves to /
    )
    expect(
      (await failure(() => expandManifestPaths(['../outside.yaml'], workspace))).message
    ).toMatch(/outside the workspace/)
  })

  it('follows a symlink that stays inside, and an absolute path anywhere (regular files only)', async () => {
    const inside = await expandManifestPaths(['inside'], workspace)
    expect(await loadManifests(inside, workspace)).toHaveLength(1)
    const outside = await expandManifestPaths([path.join(dir, 'outside.yaml')], workspace)
    expect(await loadManifests(outside, workspace)).toHaveLength(1)
    const zero = await expandManifestPaths([path.join(workspace, 'deploy')], workspace)
    expect((await failure(() => loadManifests(zero, workspace))).message).toBe(
      'deploy/zero.yaml: a character device, not a regular file'
    )
  })

  it('counts reading against the timeout', async () => {
    let clock = 0
    const files = await expandManifestPaths(['real.yaml', 'inside'], workspace)
    const error = await failure(() =>
      loadManifests(files, workspace, { at: 5, now: () => (clock += 10) })
    )
    expect(error).toBeInstanceOf(InputError)
    expect(error.message).toMatch(/^Reading the manifests used up the timeout \(at real\.yaml\)/)
  })
})

describe('API answers', () => {
  it('are read up to a byte limit', async () => {
    const fake = await FakeApiServer.start()
    try {
      fake.on('GET', '/api/v1/namespaces', (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ items: [], padding: 'x'.repeat(8192) }))
      })
      const authenticate = await authenticationOf(fake.kubeconfig())
      const small = new ApiRequester(authenticate, fake.url, 5000, undefined, 4096)
      const error = await failure(() => small.request('GET', '/api/v1/namespaces'))
      expect(error).toBeInstanceOf(ClusterError)
      expect(error.message).toBe(
        `${fake.url} sent more than 4096 bytes in answer to GET /api/v1/namespaces, the most route-gate reads; the server or a proxy in front of it is broken`
      )
      const large = new ApiRequester(authenticate, fake.url, 5000, undefined, 16384)
      expect(await large.request('GET', '/api/v1/namespaces')).toMatchObject({ items: [] })
    } finally {
      await fake.close()
    }
  })

  it('watch lines: events pass, a line longer than the limit ends the stream with a ClusterError', async () => {
    const fake = await FakeApiServer.start()
    try {
      fake.on('GET', '/api/v1/namespaces', (req, res) => {
        const stream = openStream(res)
        stream.send('ADDED', { kind: 'Namespace', metadata: { name: 'x'.repeat(3000) } })
        // no newline, ever: without a limit the client would buffer it for as long as it comes
        if (req.query.get('labelSelector') === 'endless')
          res.write(`{"padding":"${'x'.repeat(8192)}`)
        else stream.end()
      })
      const authenticate = await authenticationOf(fake.kubeconfig())
      const api = new ApiRequester(authenticate, fake.url, 5000)
      const watch = (labelSelector: string | undefined, seen: string[]): Promise<unknown> =>
        api
          .stream('/api/v1/namespaces', {
            query: { watch: true, labelSelector },
            idleMs: 5000,
            maxLineBytes: 4096,
            onLine: (line) => {
              const event = JSON.parse(line) as {
                type: string
                object: { metadata: { name: string } }
              }
              seen.push(`${event.type} ${event.object.metadata.name.length}`)
            }
          })
          .then(
            () => null,
            (e: unknown) => e
          )
      const seen: string[] = []
      expect(await watch(undefined, seen)).toBeNull()
      expect(seen).toEqual(['ADDED 3000'])
      // ended (without the limit this never resolves), the long line delivered to no one, as a
      // ClusterError (never retried: reopening the stream would cut it again)
      const cut: string[] = []
      const ended = await watch('endless', cut)
      expect(ended).toBeInstanceOf(ClusterError)
      expect((ended as Error).message).toMatch(
        /^https:\/\/127\.0\.0\.1:\d+ sent a watch event longer than 4096 bytes \(watch of \/api\/v1\/namespaces\)/
      )
      expect(cut).toEqual(['ADDED 3000'])
    } finally {
      await fake.close()
    }
  })
})

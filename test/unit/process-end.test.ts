// How a run ends once its verdict is out: the exit code carries the verdict even when nobody reads
// the output any more, and a run that is long or large has V8 build no code on the threads that can
// hang Node 24's exit (the committed dist/ and the modules, each run as a process of its own).
import { execFileSync, spawn } from 'node:child_process'
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { REPO } from '../helpers/action.ts'

const CLI = path.join(REPO, 'dist', 'cli.js')

/** The CLI with its stdout closed by the reader before it writes anything, as `| head -0` does. */
async function runUnread(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: REPO,
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  child.stdout.destroy()
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  return { code, stderr }
}

describe('a reader that goes away', () => {
  it.each([
    { what: '--help', args: ['--help'], code: 0 },
    {
      what: 'a snapshot',
      args: ['check', '--from-file', 'examples/cluster-dump.yaml', '--format', 'json'],
      code: 1
    }
  ])('$what exits $code without a stack trace', async ({ args, code }) => {
    const result = await runUnread(args)
    expect(result.stderr).not.toMatch(/EPIPE|Error|\n\s+at /)
    expect(result.code).toBe(code)
  })
})

describe('the compilers that can hang the exit', () => {
  // A module run in a Node of its own, with setFlagsFromString recording what it is given.
  function flagsSetBy(body: string[]): string[] {
    const src = (file: string): string =>
      JSON.stringify(pathToFileURL(path.join(REPO, 'src', file)).href)
    const script = [
      `import v8 from 'node:v8'`,
      'const given = []',
      'v8.setFlagsFromString = (flag) => given.push(flag)',
      `const { readManifestFile } = await import(${src('read/manifests.ts')})`,
      `const { avoidExitDeadlock } = await import(${src('runtime/exit-deadlock.ts')})`,
      ...body,
      'process.stdout.write(JSON.stringify(given))'
    ].join('\n')
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: REPO,
      encoding: 'utf8'
    })
    return JSON.parse(out) as string[]
  }
  const FLAGS = [
    '--no-maglev-build-code-on-background',
    '--no-maglev-deopt-data-on-background',
    '--no-concurrent-sparkplug'
  ]
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'route-gate-flags-'))
    const route = (i: number): string =>
      `---\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: r${i}\n  namespace: shop\nspec:\n  parentRefs:\n  - name: edge\n`
    await writeFile(path.join(dir, 'small.yaml'), route(0))
    await writeFile(
      path.join(dir, 'large.yaml'),
      Array.from({ length: 12_000 }, (_, i) => route(i)).join('')
    )
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  it('moves code building to the main thread, once, when asked', () => {
    expect(flagsSetBy(['avoidExitDeadlock()', 'avoidExitDeadlock()'])).toEqual(FLAGS)
  })

  it('is asked by reading an input of a MiB or more, not by a small one', async () => {
    const read = (file: string): string =>
      `await readManifestFile(${JSON.stringify(path.join(dir, file))}, '/')`
    expect((await stat(path.join(dir, 'large.yaml'))).size).toBeGreaterThan(1024 * 1024)
    expect(flagsSetBy([read('small.yaml')])).toEqual([])
    expect(flagsSetBy([read('large.yaml')])).toEqual(FLAGS)
  })
})

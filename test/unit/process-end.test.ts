// How a run ends once its verdict is out: the exit code carries the verdict even when nobody reads
// the output any more, and a run that may be long or large has V8 build no code on the threads that
// can hang Node 24's exit, set before the bundle loads (the committed dist/, run as a process).
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
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
  const FLAGS = [
    '--no-maglev-build-code-on-background',
    '--no-maglev-deopt-data-on-background',
    '--no-concurrent-sparkplug'
  ]
  // A preload that records every flag set and the modules loaded by then (set mid-run, the flags
  // end a run on a V8 check now and then, so they must come before the bundle's code is loaded).
  const PRELOAD = [
    `import module from 'node:module'`,
    `import { writeFileSync } from 'node:fs'`,
    `import v8 from 'node:v8'`,
    'const loaded = []',
    'module.registerHooks({ load: (url, context, next) => (loaded.push(url), next(url, context)) })',
    'const calls = []',
    'const set = v8.setFlagsFromString',
    'v8.setFlagsFromString = (flag) => (calls.push({ flag, loaded: [...loaded] }), set(flag))',
    `process.on('exit', () => writeFileSync(process.env.FLAGS_OUT, JSON.stringify(calls)))`
  ].join('\n')
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'route-gate-flags-'))
    await writeFile(path.join(dir, 'preload.mjs'), PRELOAD)
    const route = (i: number): string =>
      `---\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: r${i}\n  namespace: shop\nspec:\n  parentRefs:\n  - name: edge\n`
    await writeFile(
      path.join(dir, 'large.yaml'),
      Array.from({ length: 12_000 }, (_, i) => route(i)).join('')
    )
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  /** The flags a dist entry sets, each with whether the code it loads later was loaded by then. */
  function flagsOf(
    entry: string,
    args: string[],
    env: Record<string, string> = {}
  ): { flags: { flag: string; beforeTheBundle: boolean }[]; stdout: string } {
    const out = path.join(dir, `flags-${Math.random().toString(36).slice(2)}.json`)
    const file = path.join(REPO, 'dist', entry)
    const later = [...readFileSync(file, 'utf8').matchAll(/import\("\.\/(chunks\/[^"]+)"\)/g)]
    expect(later.length).toBeGreaterThan(0)
    const run = spawnSync(
      process.execPath,
      ['--import', pathToFileURL(path.join(dir, 'preload.mjs')).href, file, ...args],
      {
        cwd: REPO,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, FLAGS_OUT: out, ...env },
        encoding: 'utf8',
        maxBuffer: 256 * 1024 * 1024
      }
    )
    const calls = JSON.parse(readFileSync(out, 'utf8')) as { flag: string; loaded: string[] }[]
    const flags = calls.map(({ flag, loaded }) => ({
      flag,
      beforeTheBundle: !loaded.some((url) => later.some((m) => url.endsWith(m[1]!)))
    }))
    return { flags, stdout: run.stdout }
  }
  const atStartUp = FLAGS.map((flag) => ({ flag, beforeTheBundle: true }))

  it('sets them once, at start-up, for a CLI verb reading a large input', async () => {
    const large = path.join(dir, 'large.yaml')
    expect((await stat(large)).size).toBeGreaterThan(1024 * 1024)
    const args = ['predict', '--manifests', large, '--from-file', 'examples/cluster-dump.yaml']
    const { flags, stdout } = flagsOf('cli.js', [...args, '--format', 'json'])
    expect((JSON.parse(stdout) as { counts: { routes: number } }).counts.routes).toBe(12_000)
    expect(flags).toEqual(atStartUp)
  })

  it('sets them once, at start-up, for the Action reading a large input', () => {
    const env = {
      INPUT_MODE: 'predict',
      INPUT_MANIFESTS: path.join(dir, 'large.yaml'),
      'INPUT_CLUSTER-SNAPSHOT': 'examples/cluster-dump.yaml',
      INPUT_SUMMARY: 'false',
      INPUT_ANNOTATIONS: 'false',
      GITHUB_ACTIONS: 'true'
    }
    const { flags, stdout } = flagsOf('index.js', [], env)
    expect(stdout).toMatch(/::set-output name=verdict::(?!error)/)
    expect(stdout).toContain('"routes":12000')
    expect(flags).toEqual(atStartUp)
  })

  it('leaves them for --version and --help, which load little and end at once', () => {
    expect(flagsOf('cli.js', ['--version']).flags).toEqual([])
    expect(flagsOf('cli.js', ['--help']).flags).toEqual([])
  })

  it('is set from the entry point alone', () => {
    const callers = execFileSync('git', ['grep', '-l', 'avoidExitDeadlock', '--', 'src'], {
      cwd: REPO,
      encoding: 'utf8'
    })
    expect(callers.trim().split('\n').sort()).toEqual([
      'src/runtime/exit-deadlock.ts',
      'src/runtime/start-up.ts'
    ])
  })
})

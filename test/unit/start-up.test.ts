// What happens before the bundle's real work: an old Node is refused in one line, V8's compile cache
// is kept where a user or a runner keeps caches, and each command loads only what it needs (the
// committed dist/, started as users start it).
import { execFile, execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { unexpiredIdToken } from '../helpers/recording-server.ts'

import { compileCacheDir, MIN_NODE, nodeTooOld } from '../../src/runtime/start-up.ts'
import { REPO, runAction, runCli } from '../helpers/action.ts'
import { FakeApiServer } from '../helpers/fake-apiserver.ts'

const EXAMPLE = 'examples/cluster-dump.yaml'
const run = promisify(execFile)

describe('the Node version check', () => {
  it('refuses a Node older than package.json engines, in one line naming both versions', () => {
    expect(MIN_NODE).toEqual([22, 19, 0])
    const refusal = (v: string) => `route-gate needs Node 22.19 or newer; this is ${v}`
    for (const old of [
      'v20.20.2',
      'v22.0.0',
      'v22.18.9',
      'v21.99.0',
      'v18.20.8',
      'v2.19.0',
      'junk'
    ]) {
      expect(nodeTooOld(old), old).toBe(refusal(old))
    }
    for (const recent of [
      'v22.19.0',
      'v22.19.1',
      'v22.23.5',
      'v23.0.0',
      'v24.0.0',
      'v26.1.0',
      'v100.0.0'
    ]) {
      expect(nodeTooOld(recent), recent).toBeUndefined()
    }
  })

  // The machine's own Node (the first `node` on PATH outside node_modules/.bin, v20 on the CI
  // machines), running the committed bundle as `#!/usr/bin/env node` would.
  const systemNode = findSystemNode()
  it(`refuses the machine's own Node (${systemNode.version}) or runs on it, as its version says`, async () => {
    const env = { PATH: '/usr/bin:/bin', HOME: os.homedir() }
    const cli = await runWith(
      systemNode.file,
      ['dist/cli.js', 'check', '--from-file', EXAMPLE],
      env
    )
    const action = await runWith(systemNode.file, ['dist/index.js'], env)
    const line = `${nodeTooOld(systemNode.version)}\n`
    const old = nodeTooOld(systemNode.version) !== undefined
    // one line and exit 2 where it is too old; on a recent Node the example's verdict (exit 1)
    const refused = (r: typeof cli, out: string): boolean =>
      r.code === 2 &&
      r.stdout + r.stderr === out &&
      (out.startsWith('::') ? r.stderr === '' : r.stdout === '')
    expect(refused(cli, line), cli.stderr).toBe(old)
    expect(refused(action, `::error::${line}`), action.stdout).toBe(old)
    expect(cli.code).toBe(old ? 2 : 1)
  })
})

describe('compile cache', () => {
  it('lives in the user cache directory on the CLI and the runner tool cache in the Action', () => {
    const home = '/home/u'
    expect(compileCacheDir('cli', {}, 'linux', home)).toBe(
      '/home/u/.cache/route-gate/node-compile-cache'
    )
    expect(compileCacheDir('cli', { XDG_CACHE_HOME: '/c' }, 'linux', home)).toBe(
      '/c/route-gate/node-compile-cache'
    )
    expect(compileCacheDir('cli', {}, 'darwin', home)).toBe(
      '/home/u/Library/Caches/route-gate/node-compile-cache'
    )
    expect(
      compileCacheDir('action', { RUNNER_TOOL_CACHE: '/t', RUNNER_TEMP: '/r' }, 'linux', home)
    ).toBe('/t/route-gate/node-compile-cache')
    expect(compileCacheDir('action', { RUNNER_TEMP: '/r' }, 'linux', home)).toBe(
      '/r/route-gate/node-compile-cache'
    )
    expect(compileCacheDir('cli', { NODE_COMPILE_CACHE: '/n' }, 'linux', home)).toBeUndefined()
  })

  it('is written by a CLI run and by an Action run that end with process.exit', async () => {
    const cache = await mkdtemp(path.join(os.tmpdir(), 'route-gate-cache-'))
    const { code } = await runCli(['check', '--from-file', EXAMPLE], {
      env: { XDG_CACHE_HOME: cache }
    })
    expect(code).toBe(1)
    expect(await cachedFiles(path.join(cache, 'route-gate', 'node-compile-cache'))).not.toEqual([])

    const toolCache = await mkdtemp(path.join(os.tmpdir(), 'route-gate-toolcache-'))
    const action = await runAction(
      { timeout: '5 minutes' },
      { env: { RUNNER_TOOL_CACHE: toolCache } }
    )
    expect(action.code).toBe(2)
    expect(await cachedFiles(path.join(toolCache, 'route-gate', 'node-compile-cache'))).not.toEqual(
      []
    )
  })
})

describe('what each command loads', () => {
  // a preload that names every module file Node loads, on stderr
  // a preload that names every module file Node loads, on stderr
  async function loadedFiles(
    face: 'cli' | 'action',
    args: string[] | Record<string, string>,
    env: Record<string, string> = {}
  ): Promise<{ code: number | null; files: string[]; builtins: string[]; stderr: string }> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'route-gate-loads-'))
    const hook = path.join(dir, 'hook.mjs')
    await writeFile(
      hook,
      `import { registerHooks } from 'node:module'
registerHooks({ load(url, context, next) { process.stderr.write('LOADED ' + url + '\\n'); return next(url, context) } })
process.on('exit', () => { for (const m of process.moduleLoadList) process.stderr.write('BUILTIN ' + m.replace(/ /g, '_') + '\\n') })
`
    )
    const options = { env: { ...env, NODE_OPTIONS: `--import=${hook}` } }
    const { code, stderr } = Array.isArray(args)
      ? await runCli(args, options)
      : await runAction(args, options)
    const files = [...stderr.matchAll(/^LOADED file:\/\/(\S+)$/gm)].map((m) => m[1]!)
    // the Node modules loaded, as process.moduleLoadList names them ("NativeModule http")
    const builtins = [...stderr.matchAll(/^BUILTIN (\S+)$/gm)].map((m) => m[1]!.replace(/_/g, ' '))
    const ours = files.filter((f) => f.startsWith(path.join(REPO, 'dist')))
    const rest = stderr.replace(/^(LOADED|BUILTIN) .*\n/gm, '')
    return { code, files: ours, builtins, stderr: rest }
  }
  // keepNames keeps class names in the minified code: these are the two heavy clients
  const holding = async (files: string[], name: string): Promise<string[]> => {
    const found: string[] = []
    for (const file of files) if ((await readFile(file, 'utf8')).includes(name)) found.push(file)
    return found
  }

  it('never loads the cluster client or Octokit for --version, --help, a bad input or a snapshot', async () => {
    for (const args of [
      ['--version'],
      ['--help'],
      ['check', '--timeout', '5 minutes'],
      ['check', '--from-file', EXAMPLE]
    ]) {
      const { files } = await loadedFiles('cli', args)
      expect(files.length, args.join(' ')).toBeGreaterThan(0)
      expect(await holding(files, '"KubeConfig"'), args.join(' ')).toEqual([])
      expect(await holding(files, '"Octokit"'), args.join(' ')).toEqual([])
    }
  })

  // What the offline commands must not load, each found by a name minifying keeps (keepNames) or
  // by the name Node gives its own modules: the cluster client, the GitHub client, an HTTP client
  // (Node's built-in fetch is undici, loaded on first use of fetch; the bundled undici is the
  // cluster client's and @actions/http-client's) and the precise YAML reader, which reads only what
  // the fast one refuses.
  const OFFLINE_NEVER = {
    files: {
      '@kubernetes/client-node': '"KubeConfig"',
      '@actions/github (Octokit)': '"Octokit"',
      'undici, bundled': 'UND_ERR_',
      'the yaml package': '"LineCounter"'
    },
    builtins: [
      'NativeModule internal/deps/undici/undici',
      'NativeModule http',
      'NativeModule https',
      'NativeModule tls',
      'NativeModule http2',
      'NativeModule dns/promises',
      // what Node's ESM facade of node:util loads: the bundle takes built-ins without it
      'NativeModule worker_threads',
      // which brings readline, REPL history and file watchers: files are read with the callback API
      'NativeModule fs/promises',
      // about 3 ms of compiling Node's own code: only a written output needs a random name
      'NativeModule crypto'
    ]
  }

  it('loads no cluster, GitHub or HTTP client and one YAML reader for a snapshot, a prediction or --help', async () => {
    for (const args of [
      ['check', '--from-file', EXAMPLE],
      ['check', '--from-file', EXAMPLE, '--format', 'json'],
      ['predict', '--manifests', 'examples/pull-request/routes.yaml', '--from-file', EXAMPLE],
      ['--help']
    ]) {
      const { code, files, builtins, stderr } = await loadedFiles('cli', args)
      const what = args.join(' ')
      // exit 1 is also an unexpected error's: the verdict's exit comes with nothing on stderr
      expect(code, `${what}: ${stderr}`).toBe(args[0] === '--help' ? 0 : 1)
      expect(stderr, what).toBe('')
      expect(builtins.length, what).toBeGreaterThan(0)
      const found: string[] = []
      for (const [name, marker] of Object.entries(OFFLINE_NEVER.files)) {
        if ((await holding(files, marker)).length > 0) found.push(name)
      }
      found.push(...builtins.filter((b) => OFFLINE_NEVER.builtins.includes(b)))
      expect(found, what).toEqual([])
      // each file is a resolve, a read and a link: the CLI's own build keeps the path to a few. Two
      // more since a gate reads its kubeconfig itself (issue 24): esbuild splits what the offline
      // path shares with the cluster layer (the line YAML reader, files.ts) into chunks of their own.
      // Node's built-ins are not among them: the cluster layer has facades of its own.
      expect(files.length, `${what}: ${files.join(' ')}`).toBeLessThanOrEqual(16)
      if (args[0] !== 'check') continue
      // the snapshot did read its YAML, kubectl's kind: with the line reader, js-yaml not even loaded
      const loaded = `${what}: ${files.join(' ')}`
      expect(await holding(files, '"parseBlockYaml"'), loaded).toHaveLength(1)
      expect(await holding(files, '"parseEvents"'), loaded).toHaveLength(0)
    }
  })

  it('never loads them in the Action for a bad input or a dump', async () => {
    const cases: [Record<string, string>, number][] = [
      [{ timeout: '5 minutes' }, 2],
      [{ mode: 'monitor', 'from-file': EXAMPLE, 'fail-on': 'never' }, 0]
    ]
    for (const [inputs, exit] of cases) {
      const { code, files } = await loadedFiles('action', inputs)
      expect(code, JSON.stringify(inputs)).toBe(exit)
      expect(files.length).toBeGreaterThan(0)
      expect(await holding(files, '"KubeConfig"'), JSON.stringify(inputs)).toEqual([])
      expect(await holding(files, '"Octokit"'), JSON.stringify(inputs)).toEqual([])
    }
  })

  // client-node is a fifth of a one-Route gate's memory (issue 24): only the oidc auth-provider
  // or a proxy-url, which route-gate hands to it, loads it
  it('a gate against a cluster does not load client-node; an auth-provider does', async () => {
    const fake = await FakeApiServer.start()
    try {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'route-gate-kube-'))
      const gate = async (user: string[]): Promise<{ code: number | null; files: string[] }> => {
        const kubeconfig = path.join(dir, 'config')
        const text = fake
          .kubeconfig()
          .replace('    token: fake-token-123\n', user.map((line) => `    ${line}\n`).join(''))
        await writeFile(kubeconfig, text)
        const before = fake.requests.length
        const loaded = await loadedFiles(
          'cli',
          ['check', '--routes', 'httproute/default/web', '--timeout', '2s'],
          { KUBECONFIG: kubeconfig }
        )
        // the gate did talk to the cluster: the fake serves no Gateway API, so it ends with exit 3
        expect(fake.requests.length).toBeGreaterThan(before)
        return loaded
      }
      const token = await gate(['token: fake-token-123'])
      expect(token.code).toBe(3)
      expect(await holding(token.files, '"KubeConfig"')).toEqual([])
      const idToken = unexpiredIdToken()
      const provider = await gate([
        'auth-provider:',
        '  name: oidc',
        `  config: {idp-issuer-url: "https://issuer.invalid", client-id: gate, id-token: "${idToken}"}`
      ])
      expect(provider.code).toBe(3)
      expect(await holding(provider.files, '"KubeConfig"')).toHaveLength(1)
    } finally {
      await fake.close()
    }
  })
})

function findSystemNode(): { file: string; version: string } {
  const dirs = (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((d) => !d.includes('node_modules'))
  for (const dir of dirs) {
    const file = path.join(dir, 'node')
    if (existsSync(file)) {
      return { file, version: execFileSync(file, ['--version'], { encoding: 'utf8' }).trim() }
    }
  }
  return { file: process.execPath, version: process.version }
}

async function runWith(
  node: string,
  args: string[],
  env: NodeJS.ProcessEnv
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(node, args, { cwd: REPO, env })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}

async function cachedFiles(dir: string): Promise<string[]> {
  const versions = existsSync(dir) ? await readdir(dir) : []
  const files = await Promise.all(versions.map((v) => readdir(path.join(dir, v))))
  return files.flat()
}

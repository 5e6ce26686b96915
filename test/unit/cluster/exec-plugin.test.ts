// route-gate runs a kubeconfig user's exec credential plugin itself (client-node's ExecAuth keeps its
// spawn private): the environment it gets, what counts as an ExecCredential, how long one is reused,
// and how a run that fails is described (never with what it printed).
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../helpers/action.ts'
import { FakeApiServer } from '../../helpers/fake-apiserver.ts'
import {
  ExecPlugin,
  parseExecCredential,
  pluginEnvironment,
  PluginFailure,
  type ExecConfig
} from '../../../src/cluster/exec-plugin.ts'

const V1 = 'client.authentication.k8s.io/v1'
const V1BETA1 = 'client.authentication.k8s.io/v1beta1'

function credential(status: Record<string, unknown>, apiVersion = V1): string {
  return JSON.stringify({ apiVersion, kind: 'ExecCredential', status })
}

/** A plugin as a shell one-liner that also counts its runs in a file. */
function shell(script: string): { exec: ExecConfig; runs: () => number } {
  const counter = join(mkdtempSync(join(tmpdir(), 'route-gate-plugin-')), 'runs')
  return {
    exec: {
      apiVersion: V1,
      command: '/bin/sh',
      args: ['-c', `echo run >> '${counter}'; ${script}`]
    },
    runs: () => {
      try {
        return readFileSync(counter, 'utf8').split('\n').filter(Boolean).length
      } catch {
        return 0
      }
    }
  }
}

async function failure(plugin: ExecPlugin): Promise<PluginFailure> {
  const error = await plugin.credential().then(
    () => undefined,
    (e: unknown) => e
  )
  expect(error).toBeInstanceOf(PluginFailure)
  return error as PluginFailure
}

describe('parseExecCredential', () => {
  it('reads a token in v1 and v1beta1, and a client certificate and key', () => {
    expect(parseExecCredential(credential({ token: 'tok-123456' }))).toEqual({
      status: { token: 'tok-123456' }
    })
    expect(parseExecCredential(credential({ token: 'tok-123456' }, V1BETA1))?.status.token).toBe(
      'tok-123456'
    )
    expect(
      parseExecCredential(credential({ clientCertificateData: 'CERT', clientKeyData: 'KEY' }))
    ).toEqual({ status: { clientCertificateData: 'CERT', clientKeyData: 'KEY' } })
    expect(
      parseExecCredential(
        credential({ token: 'tok-123456', expirationTimestamp: '2030-01-02T03:04:05Z' })
      )?.expiresAt
    ).toBe(Date.parse('2030-01-02T03:04:05Z'))
  })

  it('refuses what is no ExecCredential of a known version with a credential in it', () => {
    for (const text of [
      'not json',
      '"a string"',
      'null',
      JSON.stringify({ kind: 'ExecCredential', status: { token: 'tok-123456' } }),
      credential({ token: 'tok-123456' }, 'client.authentication.k8s.io/v2'),
      JSON.stringify({ apiVersion: V1, kind: 'Secret', status: { token: 'tok-123456' } }),
      credential({}),
      credential({ token: '' }),
      credential({ clientCertificateData: 'CERT' }),
      credential({ token: 'tok-123456', expirationTimestamp: 'next tuesday' })
    ]) {
      expect(parseExecCredential(text), text).toBeUndefined()
    }
  })
})

describe('pluginEnvironment', () => {
  it("drops the Action's inputs, adds the kubeconfig's env and KUBERNETES_EXEC_INFO", () => {
    const env = pluginEnvironment(
      { apiVersion: V1, command: 'get-token', env: [{ name: 'AWS_PROFILE', value: 'prod' }] },
      { PATH: '/bin', 'INPUT_GITHUB-TOKEN': 'ghs_x', INPUT_KUBECONFIG: 'apiVersion: v1' }
    )
    expect(env).toEqual({
      PATH: '/bin',
      AWS_PROFILE: 'prod',
      // client-go's encoding: kind first
      KUBERNETES_EXEC_INFO: JSON.stringify({
        kind: 'ExecCredential',
        apiVersion: V1,
        spec: { interactive: false }
      })
    })
  })

  it('tells the cluster to a plugin that asks (provideClusterInfo)', () => {
    const env = pluginEnvironment(
      { apiVersion: V1 },
      {},
      { server: 'https://h:6443', config: { a: 1 } }
    )
    expect(JSON.parse(env.KUBERNETES_EXEC_INFO ?? '')).toEqual({
      kind: 'ExecCredential',
      apiVersion: V1,
      spec: { cluster: { server: 'https://h:6443', config: { a: 1 } }, interactive: false }
    })
  })

  it('sets no KUBERNETES_EXEC_INFO for an unknown apiVersion', () => {
    expect(pluginEnvironment({ command: 'x' }, { PATH: '/bin' })).toEqual({ PATH: '/bin' })
  })
})

describe('ExecPlugin', () => {
  it('runs once for concurrent requests and reuses a credential without expiry', async () => {
    const { exec, runs } = shell(`sleep 0.2; echo '${credential({ token: 'tok-123456' })}'`)
    const plugin = new ExecPlugin(exec)
    const all = await Promise.all([plugin.credential(), plugin.credential(), plugin.credential()])
    expect(all.map((status) => status.token)).toEqual(['tok-123456', 'tok-123456', 'tok-123456'])
    await plugin.credential()
    expect(runs()).toBe(1)
  })

  it('runs again once the expirationTimestamp has passed', async () => {
    const expires = '2030-01-01T00:00:00Z'
    const { exec, runs } = shell(
      `echo '${credential({ token: 'tok-123456', expirationTimestamp: expires })}'`
    )
    let now = Date.parse(expires) - 1000
    const plugin = new ExecPlugin(exec, { now: () => now })
    await plugin.credential()
    await plugin.credential()
    expect(runs()).toBe(1)
    now = Date.parse(expires)
    await plugin.credential()
    expect(runs()).toBe(2)
  })

  it('gets the environment it is given, without INPUT_ variables', async () => {
    const { exec } = shell(
      `env | grep -q '^INPUT_' && exit 9; [ "$KUBERNETES_EXEC_INFO" = '{"kind":"ExecCredential","apiVersion":"${V1}","spec":{"interactive":false}}' ] || exit 8; echo '${credential({ token: 'tok-123456' })}'`
    )
    const plugin = new ExecPlugin(exec, { env: { ...process.env, INPUT_TOKEN: 'ghs_input_token' } })
    expect((await plugin.credential()).token).toBe('tok-123456')
  })

  it('a failed run: its exit code, never its stderr', async () => {
    const exit = await failure(new ExecPlugin(shell('echo secret-on-stderr >&2; exit 7').exec))
    expect(exit.message).toBe('failed (exit code 7); run it by hand to see its message')
  })

  it('a run ended by a signal: the signal', async () => {
    const killed = await failure(new ExecPlugin(shell('kill -TERM $$').exec))
    expect(killed.message).toBe('was ended by signal SIGTERM')
  })

  it('a plugin that cannot start, or no command: said so', async () => {
    const missing = await failure(new ExecPlugin({ command: '/nonexistent/get-token' }))
    expect(missing.message).toBe('could not be started (ENOENT)')
    const none = await failure(new ExecPlugin({ args: ['x'] }))
    expect(none.message).toBe('names no command')
  })

  it('output that is no ExecCredential, or never ends: said so, not quoted', async () => {
    const bad = await failure(new ExecPlugin(shell("echo 'tok-123456 is no JSON'").exec))
    expect(bad.message).toBe('exited 0 but printed no valid ExecCredential JSON')
    const endless = await failure(new ExecPlugin(shell('yes').exec, { maxOutputBytes: 4096 }))
    expect(endless.message).toBe('printed more than 4096 bytes, which no ExecCredential is')
  })

  it('runs again after a failure (nothing failed is cached)', async () => {
    const { exec, runs } = shell('exit 3')
    const plugin = new ExecPlugin(exec)
    await failure(plugin)
    await failure(plugin)
    expect(runs()).toBe(2)
  })

  it("gets none of the runner's own tokens and URLs", async () => {
    const dump = join(mkdtempSync(join(tmpdir(), 'route-gate-plugin-env-')), 'env')
    const { exec } = shell(`env > '${dump}'; echo '${credential({ token: 'tok-123456' })}'`)
    const runner = {
      ACTIONS_RUNTIME_TOKEN: 'rt-secret',
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'oidc-secret',
      ACTIONS_ID_TOKEN_REQUEST_URL: 'https://oidc.invalid/token',
      ACTIONS_CACHE_URL: 'https://cache.invalid/',
      ACTIONS_RESULTS_URL: 'https://results.invalid/'
    }
    const plugin = new ExecPlugin(exec, { env: { ...process.env, ...runner, AWS_PROFILE: 'ci' } })
    expect((await plugin.credential()).token).toBe('tok-123456')
    const names = readFileSync(dump, 'utf8')
      .split('\n')
      .map((line) => line.split('=')[0])
    expect(names).toContain('AWS_PROFILE')
    for (const name of Object.keys(runner)) expect(names).not.toContain(name)
  })

  it('is killed once the signal aborts, and says it did not finish', async () => {
    const pidFile = join(mkdtempSync(join(tmpdir(), 'route-gate-plugin-hang-')), 'pid')
    const plugin = new ExecPlugin(shell(`echo $$ > '${pidFile}'; exec sleep 1000`).exec)
    const error = await plugin.credential(AbortSignal.timeout(600)).then(
      () => undefined,
      (e: unknown) => e
    )
    expect(error).toBeInstanceOf(PluginFailure)
    expect((error as Error).message).toBe('did not finish within 1s; killed')
    await expectGone(Number(readFileSync(pidFile, 'utf8')))
  })
})

/** Waits up to 2 s for `pid` to be gone (or a zombie: dead, not yet reaped by whoever adopted it). */
async function expectGone(pid: number): Promise<void> {
  const alive = (): boolean => {
    try {
      return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
    } catch {
      return false
    }
  }
  for (let i = 0; i < 20 && alive(); i++) await new Promise((r) => setTimeout(r, 100))
  expect(alive()).toBe(false)
}

describe('the CLI with an exec plugin', () => {
  /** A kubeconfig in its own directory whose user runs `./plugin.sh` there. */
  function pluginDir(script: string, server: string): { dir: string; file: string } {
    const dir = mkdtempSync(join(tmpdir(), 'route-gate-kubeconfig-dir-'))
    writeFileSync(join(dir, 'plugin.sh'), `#!/bin/sh\n${script}\n`, { mode: 0o755 })
    const file = join(dir, 'config')
    writeFileSync(
      file,
      [
        'apiVersion: v1',
        'kind: Config',
        `clusters: [{name: c, cluster: {server: "${server}", insecure-skip-tls-verify: true}}]`,
        'users:',
        '- name: ci',
        '  user:',
        `    exec: {apiVersion: "${V1}", command: ./plugin.sh, interactiveMode: Never}`,
        'contexts: [{name: c, context: {cluster: c, user: ci}}]',
        'current-context: c',
        ''
      ].join('\n')
    )
    return { dir, file }
  }

  it("runs an exec plugin's relative command from the kubeconfig's directory, never the working directory", async () => {
    const fake = await FakeApiServer.start()
    const { file } = pluginDir(`echo '${credential({ token: 'token-of-dir-a' })}'`, fake.url)
    // the planted twin in the working directory, which kubectl would never run
    const cwd = mkdtempSync(join(tmpdir(), 'route-gate-cwd-'))
    writeFileSync(
      join(cwd, 'plugin.sh'),
      `#!/bin/sh\necho '${credential({ token: 'token-of-cwd' })}'\n`,
      { mode: 0o755 }
    )
    const result = await runCli(
      ['check', '--routes', 'httproute/default/web', '--timeout', '3s', '--kubeconfig', file],
      { cwd }
    )
    await fake.close()
    const sent = fake.requests.map((request) => request.headers.authorization)
    expect(sent.length, result.stderr).toBeGreaterThan(0)
    expect(new Set(sent)).toEqual(new Set(['Bearer token-of-dir-a']))
  })

  it('kills a plugin still running at the deadline: one line naming it, exit 3', async () => {
    const { dir, file } = pluginDir(
      'echo $$ > "$(dirname "$0")/pid"; exec sleep 1000',
      'https://127.0.0.1:9'
    )
    const result = await runCli([
      'check',
      '--routes',
      'httproute/default/web',
      '--timeout',
      '2s',
      '--kubeconfig',
      file
    ])
    expect(result.code).toBe(3)
    expect(result.elapsedMs).toBeLessThan(15_000)
    expect(result.stderr.trim()).toBe(
      'route-gate: https://127.0.0.1:9 (context c): the kubeconfig user "ci"\'s exec credential plugin "plugin.sh" did not finish within 2s; killed (still failing at the deadline)'
    )
    expect(existsSync(join(dir, 'pid'))).toBe(true)
    await expectGone(Number(readFileSync(join(dir, 'pid'), 'utf8')))
  })
})

// Secrets in the kubeconfig input: every credential is handed to the masker before anything could
// print it (even a kubeconfig that fails to parse), and no secret reaches a message, the log, the job
// summary, the outputs or a file left behind. route-gate writes no temporary kubeconfig at all (the
// content is parsed in memory): the scan of RUNNER_TEMP and the temp directory proves that nothing
// holding a secret is left there, on failure too.
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { connect } from '../../src/cluster/connect.ts'
import { runAction, runCli } from '../helpers/action.ts'
import { FAST_TUNING, FakeApiServer, sendStatus } from '../helpers/fake-apiserver.ts'

const TOKEN = 'rg-token-8d1f0c2b7e6a'
const PASSWORD = 'rg-password-3c9e7a1d'
const KEY_PEM =
  '-----BEGIN EC PRIVATE KEY-----\nrg-key-body-5e2b8f1a9c\n-----END EC PRIVATE KEY-----\n'
const KEY_DATA = Buffer.from(KEY_PEM).toString('base64')
const EXEC_SECRET = 'rg-exec-env-0a7d3e'
const PROVIDER_SECRET = 'rg-refresh-6f4c1b'
const SECRETS = [TOKEN, PASSWORD, 'rg-key-body-5e2b8f1a9c', KEY_DATA, EXEC_SECRET, PROVIDER_SECRET]

function kubeconfig(user: string, server = 'https://127.0.0.1:2'): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: test',
    '  cluster:',
    `    server: ${server}`,
    'users:',
    '- name: ci',
    '  user:',
    user,
    'contexts:',
    '- name: test',
    '  context: {cluster: test, user: ci}',
    'current-context: test',
    ''
  ].join('\n')
}

const EVERY_CREDENTIAL = kubeconfig(
  [
    `    token: ${TOKEN}`,
    `    password: "${PASSWORD}"`,
    `    client-key-data: ${KEY_DATA}`,
    '    exec:',
    '      apiVersion: client.authentication.k8s.io/v1',
    '      command: get-token',
    `      env: [{name: SECRET, value: ${EXEC_SECRET}}]`,
    '    auth-provider:',
    '      name: oidc',
    `      config: {refresh-token: ${PROVIDER_SECRET}}`
  ].join('\n')
)

/** Files under `dir` (two levels) changed since `since` whose content holds a secret. */
async function filesWithSecrets(dir: string, since: number, depth = 2): Promise<string[]> {
  const found: string[] = []
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const file = path.join(dir, entry.name)
    const info = await stat(file).catch(() => undefined)
    if (!info || info.mtimeMs < since) continue
    if (entry.isDirectory() && depth > 0)
      found.push(...(await filesWithSecrets(file, since, depth - 1)))
    else if (entry.isFile() && info.size < 4 * 1024 * 1024) {
      const text = await readFile(file, 'utf8').catch(() => '')
      if (SECRETS.some((s) => text.includes(s))) found.push(file)
    }
  }
  return found
}

describe('kubeconfig secrets', () => {
  it('masks every credential before any check (kubectl refuses this user) or connection', async () => {
    const masked: string[] = []
    const error = await connect({
      kubeconfig: EVERY_CREDENTIAL,
      env: {},
      mask: (secret) => masked.push(secret)
    }).then(
      () => undefined,
      (e: unknown) => e as Error
    )
    expect(error?.message).toMatch(/^Invalid kubeconfig: user "ci" gives both a token/)
    for (const secret of SECRETS) expect(error?.message).not.toContain(secret)
    for (const secret of [
      TOKEN,
      PASSWORD,
      KEY_DATA,
      KEY_PEM.trim(),
      EXEC_SECRET,
      PROVIDER_SECRET
    ]) {
      expect(masked).toContain(secret)
    }
  })

  it('masks the secrets of a kubeconfig that does not parse, and quotes none in the error', async () => {
    const broken = `${EVERY_CREDENTIAL}users: [dup\n`
    const masked: string[] = []
    const error = await connect({ kubeconfig: broken, env: {}, mask: (s) => masked.push(s) }).then(
      () => undefined,
      (e: unknown) => e as Error
    )
    expect(error?.name).toBe('InputError')
    for (const secret of SECRETS) expect(error?.message).not.toContain(secret)
    expect(masked).toEqual(expect.arrayContaining([TOKEN, PASSWORD, KEY_DATA, PROVIDER_SECRET]))
  })

  it('Action bundle: no secret in the log (outside ::add-mask::), summary, outputs or left-over files', async () => {
    const since = Date.now() - 1000
    const result = await runAction({
      routes: 'httproute/default/web',
      timeout: '2s',
      // the token in a second user: kubectl allows one authentication method a user
      kubeconfig: kubeconfig(
        `    username: ci\n    password: ${PASSWORD}\n- name: other\n  user:\n    token: ${TOKEN}`
      )
    })
    expect(result.code).toBe(3)
    const log = result.stdout
      .split('\n')
      .filter((line) => !line.startsWith('::add-mask::'))
      .join('\n')
    expect(result.stdout).toContain(`::add-mask::${TOKEN}`)
    expect(result.stdout).toContain(`::add-mask::${PASSWORD}`)
    for (const place of [log, result.stderr, result.summary, JSON.stringify(result.outputs)]) {
      for (const secret of SECRETS) expect(place).not.toContain(secret)
    }
    expect(await filesWithSecrets(result.runnerTemp, since)).toEqual([])
    expect(await filesWithSecrets(os.tmpdir(), since)).toEqual([])
  })

  it('CLI bundle: the kubeconfig flag and KUBECONFIG leak nothing into stdout or stderr', async () => {
    const since = Date.now() - 1000
    // --kubeconfig is a path, as in kubectl: the file is the test's own, removed before the check
    const dir = await mkdtemp(path.join(os.tmpdir(), 'route-gate-kubeconfig-'))
    const file = path.join(dir, 'config')
    await writeFile(file, kubeconfig(`    token: ${TOKEN}`), { mode: 0o600 })
    const flag = await runCli([
      'check',
      '--routes',
      'httproute/default/web',
      '--timeout',
      '2s',
      '--kubeconfig',
      file
    ])
    await rm(dir, { recursive: true, force: true })
    expect(flag.code).toBe(3)
    for (const secret of SECRETS) expect(flag.stdout + flag.stderr).not.toContain(secret)
    expect(await filesWithSecrets(os.tmpdir(), since)).toEqual([])
  })

  it('Action bundle: a failing exec plugin and a server with userinfo leak nothing, say what failed', async () => {
    const stderrSecret = 'rg-plugin-stderr-4e1f'
    const argSecret = 'rg-plugin-arg-9c2d'
    const result = await runAction({
      routes: 'httproute/default/web',
      timeout: '5s',
      kubeconfig: kubeconfig(
        [
          '    exec:',
          '      apiVersion: client.authentication.k8s.io/v1',
          '      command: /bin/sh',
          '      interactiveMode: Never',
          `      args: ["-c", "echo ${stderrSecret} >&2; exit 7", "sh", "${argSecret}"]`
        ].join('\n'),
        `https://admin:${PASSWORD}@127.0.0.1:2`
      )
    })
    expect(result.code).toBe(3)
    const log = result.stdout
      .split('\n')
      .filter((line) => !line.startsWith('::add-mask::'))
      .join('\n')
    const annotation = log.split('\n').find((line) => line.startsWith('::error'))
    expect(annotation).toContain('https://127.0.0.1:2 (context test)')
    expect(annotation).toContain('exec credential plugin "sh" failed (exit code 7)')
    expect(result.summary).toContain('exit code 7')
    for (const place of [log, result.stderr, result.summary, JSON.stringify(result.outputs)]) {
      for (const secret of [stderrSecret, argSecret, PASSWORD, `admin:`]) {
        expect(place).not.toContain(secret)
      }
    }
  })

  it('CLI under GitHub Actions: add-mask first on stdout; a 401 body echoing the token never printed', async () => {
    const fake = await FakeApiServer.start()
    // every request, discovery included: what a server or proxy quoting the request would send
    const echo =
      (code: number, reason: string) =>
      (request: { headers: Record<string, unknown> }, response: Parameters<typeof sendStatus>[0]) =>
        sendStatus(response, code, reason, `rejected ${String(request.headers.authorization)}`)
    fake.on('GET', /.*/, echo(401, 'Unauthorized'))
    const dir = await mkdtemp(path.join(os.tmpdir(), 'route-gate-kubeconfig-'))
    const file = path.join(dir, 'config')
    await writeFile(file, fake.kubeconfig({ token: TOKEN }), { mode: 0o600 })
    const result = await runCli(
      ['check', '--routes', 'httproute/default/web', '--timeout', '5s', '--kubeconfig', file],
      { env: { GITHUB_ACTIONS: 'true' } }
    )
    await fake.close()
    await rm(dir, { recursive: true, force: true })
    expect(result.code).toBe(3)
    expect(fake.requests.length).toBeGreaterThan(0)
    expect(result.stdout.split('\n')[0]).toBe(`::add-mask::${TOKEN}`)
    const lines = `${result.stdout}\n${result.stderr}`.split('\n')
    expect(lines.filter((line) => line.includes(TOKEN))).toEqual([`::add-mask::${TOKEN}`])
  })

  it('an error body echoing the bearer token is shown with *** in its place', async () => {
    const fake = await FakeApiServer.start()
    fake.on('GET', /.*/, (request, response) =>
      sendStatus(response, 400, 'BadRequest', `bad header ${String(request.headers.authorization)}`)
    )
    const client = await connect({
      kubeconfig: fake.kubeconfig({ token: TOKEN }),
      env: {},
      mask: () => {},
      tuning: FAST_TUNING
    })
    const error = await client.checkNamespaces(['shop']).then(
      () => undefined,
      (e: unknown) => e as Error
    )
    client.close()
    await fake.close()
    expect(error?.name).toBe('ClusterError')
    expect(error?.message).toContain('bad header Bearer ***')
    expect(error?.message).not.toContain(TOKEN)
  })
})

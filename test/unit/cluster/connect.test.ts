import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { connect } from '../../../src/cluster/connect.ts'
import { ClusterError, InputError } from '../../../src/runtime/errors.ts'
import { FAST_TUNING, FakeApiServer, sendJson } from '../../helpers/fake-apiserver.ts'

const emptyHome = mkdtempSync(join(tmpdir(), 'route-gate-home-'))
const noClusterEnv = { HOME: emptyHome }

describe('connect', () => {
  let fake: FakeApiServer
  beforeEach(async () => {
    fake = await FakeApiServer.start()
  })
  afterEach(async () => {
    await fake.close()
  })

  it('describes the cluster by server and context and uses the context namespace', async () => {
    const client = await connect({
      kubeconfig: fake.kubeconfig({ context: 'ci', namespace: 'shop' }),
      env: noClusterEnv,
      mask: () => {}
    })
    expect(client.description).toBe(`${fake.url} (context ci)`)
    expect(client.namespace).toBe('shop')
  })

  it("defaults the namespace to 'default'", async () => {
    const client = await connect({
      kubeconfig: fake.kubeconfig(),
      env: noClusterEnv,
      mask: () => {}
    })
    expect(client.namespace).toBe('default')
  })

  it('masks tokens, passwords, client keys and exec env values before parsing', async () => {
    const keyPem = '-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----'
    const keyData = Buffer.from(keyPem).toString('base64')
    const kubeconfig = `${fake.kubeconfig({ token: 'sekret-token' })}
`.replace(
      'users:\n',
      `users:
- name: basic
  user:
    username: admin
    password: "hunter2"
- name: cert
  user:
    client-certificate-data: Y2VydA==
    client-key-data: ${keyData}
- name: exec
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: get-token
      env:
      - name: API_KEY
        value: exec-env-secret
`
    )
    const masked: string[] = []
    await connect({ kubeconfig, env: noClusterEnv, mask: (value) => masked.push(value) })
    expect(masked).toEqual(
      expect.arrayContaining(['sekret-token', 'hunter2', keyData, keyPem, 'exec-env-secret'])
    )
    expect(masked).not.toContain('Y2VydA==')
  })

  it('masks secrets even when the kubeconfig does not parse, and does not echo them', async () => {
    const masked: string[] = []
    const broken = 'users:\n- name: u\n  user:\n    token: leaked-token\n  bad: [unclosed\n'
    const error = await connect({
      kubeconfig: broken,
      env: noClusterEnv,
      mask: (v) => masked.push(v)
    }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InputError)
    expect((error as Error).message).toMatch(/^Invalid kubeconfig: /)
    expect((error as Error).message).not.toContain('leaked-token')
    expect(masked).toContain('leaked-token')
  })

  it('rejects a context the kubeconfig does not have, naming the ones it has', async () => {
    const error = await connect({
      kubeconfig: fake.kubeconfig({ context: 'local' }),
      context: 'prod',
      env: noClusterEnv,
      mask: () => {}
    }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InputError)
    expect((error as Error).message).toBe(
      'Context "prod" not found in the kubeconfig (contexts: local)'
    )
  })

  it('refuses to fall back to http://localhost:8080 when nothing is configured', async () => {
    const error = await connect({ env: noClusterEnv, mask: () => {} }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ClusterError)
    expect((error as Error).message).toBe(
      'No cluster configured: set the kubeconfig input, KUBECONFIG, or run in a cluster'
    )
  })

  it('reads KUBECONFIG files when there is no kubeconfig input, and masks their tokens', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'route-gate-kc-'))
    const file = join(dir, 'config')
    writeFileSync(file, fake.kubeconfig({ context: 'from-file', token: 'file-token' }), {
      mode: 0o600
    })
    const masked: string[] = []
    const client = await connect({
      env: { ...noClusterEnv, KUBECONFIG: `${join(dir, 'missing')}:${file}` },
      mask: (v) => masked.push(v)
    })
    expect(client.description).toBe(`${fake.url} (context from-file)`)
    expect(masked).toContain('file-token')
  })

  it('merges KUBECONFIG files with the first one winning, as kubectl does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'route-gate-kc-'))
    const first = join(dir, 'first')
    const second = join(dir, 'second')
    writeFileSync(first, fake.kubeconfig({ context: 'one' }), { mode: 0o600 })
    writeFileSync(second, fake.kubeconfig({ context: 'two', server: 'https://elsewhere:6443' }))
    const client = await connect({
      env: { ...noClusterEnv, KUBECONFIG: `${first}:${second}` },
      context: 'two',
      mask: () => {}
    })
    // both files name their cluster "fake": the first file's entry is kept
    expect(client.description).toBe(`${fake.url} (context two)`)
  })

  it('sends the bearer token with requests', async () => {
    fake.on('GET', '/api/v1/namespaces/shop', (_req, res) =>
      sendJson(res, 200, { kind: 'Namespace', metadata: { name: 'shop' } })
    )
    const client = await connect({
      kubeconfig: fake.kubeconfig({ token: 'bearer-abc' }),
      env: noClusterEnv,
      mask: () => {},
      tuning: FAST_TUNING
    })
    await client.checkNamespaces(['shop'])
    expect(fake.requestsTo('GET', '/api/v1/namespaces/shop')[0]?.headers.authorization).toBe(
      'Bearer bearer-abc'
    )
  })
})

// route-gate reads the kubeconfig itself (kubeconfig-text.ts, kubeconfig.ts), as client-node's
// loadFromFile did: its fields, relative paths against the file's directory, kubectl's first-wins
// merge of KUBECONFIG files, the in-cluster service account, the same refusals naming the field, and
// every credential masked before anything could print it.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadKubeConfig, type KubeConfigSource } from '../../../src/cluster/kubeconfig.ts'
import { ClusterError, InputError } from '../../../src/runtime/errors.ts'

const home = mkdtempSync(join(tmpdir(), 'route-gate-home-'))

function load(source: Partial<KubeConfigSource>, masked: string[] = []) {
  return loadKubeConfig({ env: { HOME: home }, mask: (s) => masked.push(s), ...source })
}

async function refusal(source: Partial<KubeConfigSource>, masked: string[] = []): Promise<Error> {
  const error = await load(source, masked).then(
    () => undefined,
    (e: unknown) => e as Error
  )
  if (error === undefined) throw new Error('the kubeconfig was taken')
  return error
}

/** A directory holding `files`, each written as given. */
function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'route-gate-kc-'))
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true })
    writeFileSync(join(dir, name), text)
  }
  return dir
}

const EVERY_FIELD = `apiVersion: v1
kind: Config
clusters:
- name: prod
  cluster:
    server: https://api.example:6443/
    certificate-authority: pki/ca.crt
    insecure-skip-tls-verify: true
    tls-server-name: api.internal
    proxy-url: http://proxy.example:3128
users:
- name: deployer
  user:
    token: static-token-1234
    tokenFile: token
    username: admin
    password: pass-word-99
    client-certificate: pki/client.crt
    client-key: /abs/client.key
    client-certificate-data: Y2VydA==
    client-key-data: a2V5LWRhdGEtdmFsdWU=
    as: impersonated
    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: get-token
    auth-provider:
      name: oidc
      config: {client-secret: oidc-secret-55}
contexts:
- name: ci
  context: {cluster: prod, user: deployer, namespace: shop}
current-context: ci
`

describe('the kubeconfig reader', () => {
  it('reads every field, with relative paths against the directory of the file', async () => {
    const dir = folder({ config: EVERY_FIELD, 'pki/ca.crt': 'CA', 'pki/client.crt': 'CERT' })
    const error = await refusal({ env: { HOME: home, KUBECONFIG: join(dir, 'config') } })
    // every file the context names is checked: the absolute key file is not there
    expect(error.message).toBe(
      'Invalid kubeconfig (context "ci"): user "deployer" client-key /abs/client.key: no such file'
    )
    writeFileSync(join(dir, 'config'), EVERY_FIELD.replace('/abs/client.key', 'client.key'))
    writeFileSync(join(dir, 'client.key'), 'KEY')
    const loaded = await load({ env: { HOME: home, KUBECONFIG: join(dir, 'config') } })
    expect(loaded.cluster).toEqual({
      name: 'prod',
      server: 'https://api.example:6443',
      caData: undefined,
      caFile: join(dir, 'pki/ca.crt'),
      skipTLSVerify: true,
      tlsServerName: 'api.internal',
      proxyUrl: 'http://proxy.example:3128'
    })
    expect(loaded.user).toEqual({
      name: 'deployer',
      token: 'static-token-1234',
      tokenFile: join(dir, 'token'),
      username: 'admin',
      password: 'pass-word-99',
      certData: 'Y2VydA==',
      certFile: join(dir, 'pki/client.crt'),
      keyData: 'a2V5LWRhdGEtdmFsdWU=',
      keyFile: join(dir, 'client.key'),
      exec: { apiVersion: 'client.authentication.k8s.io/v1', command: 'get-token' },
      authProvider: { name: 'oidc', config: { 'client-secret': 'oidc-secret-55' } },
      impersonate: 'impersonated'
    })
    expect(loaded).toMatchObject({
      server: 'https://api.example:6443',
      contextName: 'ci',
      defaultNamespace: 'shop'
    })
  })

  it("takes client-node's token-file too, and leaves the input's relative paths as written", async () => {
    const text = tokenUser(['token-file: relative/token'])
    const error = await refusal({ kubeconfig: text })
    expect(error.message).toBe(
      'Invalid kubeconfig (context "c"): user "u" token-file relative/token: no such file'
    )
  })

  it('skips TLS verification only for a YAML true', async () => {
    for (const [value, skip] of [
      ['true', true],
      ['"true"', false],
      ['false', false]
    ] as const) {
      const text = tokenUser(['token: abc']).replace(
        '    server: https://127.0.0.1:2',
        `    server: https://127.0.0.1:2\n    insecure-skip-tls-verify: ${value}`
      )
      expect((await load({ kubeconfig: text })).cluster.skipTLSVerify, value).toBe(skip)
    }
  })

  it('merges KUBECONFIG files: the first to set a name or current-context wins', async () => {
    const first = tokenUser(['token: first-token'], 'https://first:6443').replace(
      'current-context: c\n',
      ''
    )
    const second = tokenUser(['token: second-token'], 'https://second:6443')
      .replace(/name: c\b/g, 'name: c')
      .replace(
        'contexts:\n- name: c\n',
        'contexts:\n- name: other\n  context: {cluster: c}\n- name: c\n'
      )
    const dir = folder({ first, second })
    const env = {
      HOME: home,
      KUBECONFIG: `${join(dir, 'first')}:${join(dir, 'missing')}:${join(dir, 'second')}`
    }
    const loaded = await load({ env })
    // current-context from the second file, the only one to set it; cluster and user from the first
    expect(loaded.contextName).toBe('c')
    expect(loaded.cluster.server).toBe('https://first:6443')
    expect(loaded.user.token).toBe('first-token')
    const other = await load({ env, context: 'other' })
    expect(other.user).toEqual({ name: '' })
    const both = folder({ a: second, b: first })
    const swapped = await load({
      env: { HOME: home, KUBECONFIG: `${join(both, 'a')}:${join(both, 'b')}` }
    })
    expect(swapped.cluster.server).toBe('https://second:6443')
  })

  it('reads ~/.kube/config when there is neither input nor KUBECONFIG', async () => {
    const user = mkdtempSync(join(tmpdir(), 'route-gate-home-'))
    mkdirSync(join(user, '.kube'))
    writeFileSync(join(user, '.kube', 'config'), tokenUser(['token: home-token-77']))
    const masked: string[] = []
    const loaded = await loadKubeConfig({ env: { HOME: user }, mask: (s) => masked.push(s) })
    expect(loaded.user.token).toBe('home-token-77')
    expect(masked).toEqual(['home-token-77'])
  })

  it('reads the in-cluster service account: token file, CA, namespace, IPv6 host in brackets', async () => {
    const dir = folder({ token: 'sa-token\n', 'ca.crt': 'CA', namespace: 'shop\n' })
    const env = { HOME: home, KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '443' }
    const loaded = await load({ env, serviceAccountDir: dir })
    expect(loaded).toMatchObject({
      server: 'https://[fd00::1]:443',
      contextName: 'inClusterContext',
      defaultNamespace: 'shop',
      cluster: { caFile: join(dir, 'ca.crt'), skipTLSVerify: false },
      user: { tokenFile: join(dir, 'token') }
    })
    const plain = await load({
      env: { ...env, KUBERNETES_SERVICE_HOST: '10.0.0.1', KUBERNETES_SERVICE_PORT: '8080' },
      serviceAccountDir: folder({ token: 't', 'ca.crt': 'CA' })
    })
    expect(plain).toMatchObject({ server: 'http://10.0.0.1:8080', defaultNamespace: 'default' })
    // no token mounted: not in a cluster
    const none = await refusal({ env, serviceAccountDir: folder({}) })
    expect(none).toBeInstanceOf(ClusterError)
  })
})

function tokenUser(user: string[], server = 'https://127.0.0.1:2'): string {
  return [
    'clusters:',
    '- name: c',
    '  cluster:',
    `    server: ${server}`,
    'users:',
    '- name: u',
    '  user:',
    ...user.map((line) => `    ${line}`),
    'contexts:',
    '- name: c',
    '  context: {cluster: c, user: u}',
    'current-context: c',
    ''
  ].join('\n')
}

describe('a kubeconfig refused', () => {
  it.each([
    ['clusters: [{cluster: {server: x}}]', 'clusters[0].name is missing'],
    ['clusters: [{name: c}]', 'clusters[0].cluster is missing'],
    ['clusters: [{name: c, cluster: {}}]', 'clusters[0].cluster.server is missing'],
    ['clusters: [{name: c, cluster: {server: [a]}}]', 'clusters[0].cluster.server is not a string'],
    ['users: [{user: {token: abcdef}}]', 'users[0].name is missing'],
    ['users: [{name: u, user: {exec: get-token}}]', 'users[0].user.exec is not a mapping'],
    ['contexts: [{name: c}]', 'contexts[0].context is missing'],
    ['contexts: [{name: c, context: {user: u}}]', 'contexts[0].context.cluster is missing'],
    [
      'contexts: [{name: c, context: {cluster: c, namespace: {a: b}}}]',
      'contexts[0].context.namespace is not a string'
    ],
    ['- a list', 'not a mapping of clusters, users and contexts'],
    ['a: 1\n---\nb: 2\n', 'expected a single document in the stream, but found more'],
    ['a: 1\na: 2\n', 'duplicated mapping key (2:1)'],
    ['a: *unknown\n', 'unidentified alias … (1:5)']
  ])('%s: %s', async (text, problem) => {
    const error = await refusal({ kubeconfig: text })
    expect(error).toBeInstanceOf(InputError)
    expect(error.message).toBe(`Invalid kubeconfig: ${problem}`)
  })

  it('names the file it came from', async () => {
    const dir = folder({ config: 'clusters: [{name: c, cluster: {}}]\n' })
    const error = await refusal({ env: { HOME: home, KUBECONFIG: join(dir, 'config') } })
    expect(error.message).toBe(
      `Invalid kubeconfig ${join(dir, 'config')}: clusters[0].cluster.server is missing`
    )
  })

  it('a context that names no cluster, and no context at all', async () => {
    const missing = tokenUser(['token: abc']).replace('{cluster: c,', '{cluster: gone,')
    expect((await refusal({ kubeconfig: missing })).message).toBe(
      'Context "c" names cluster "gone", which the kubeconfig does not define'
    )
    const none = tokenUser(['token: abc']).replace('current-context: c\n', '')
    expect((await refusal({ kubeconfig: none })).message).toBe(
      'The kubeconfig has no current context; set the context input (contexts: c)'
    )
  })

  it('reads what the line reader declines (anchors, aliases, folded text) as YAML does', async () => {
    const text = `clusters:
- name: &name c
  cluster: {server: https://127.0.0.1:2}
users:
- name: u
  user:
    token: >-
      folded-token
contexts:
- name: *name
  context: {cluster: *name, user: u}
current-context: c
`
    const loaded = await load({ kubeconfig: text })
    expect(loaded.user.token).toBe('folded-token')
  })
})

describe('kubeconfig values masked', () => {
  it('token, password, key data (and what it decodes to), credential exec env, provider secrets', async () => {
    const masked: string[] = []
    await load(
      {
        kubeconfig: EVERY_FIELD.replace(
          /^ {4}(certificate-authority|client-certificate|client-key|tokenFile): .*\n/gm,
          ''
        )
      },
      masked
    )
    expect(masked.sort()).toEqual(
      [
        'a2V5LWRhdGEtdmFsdWU=',
        'key-data-value',
        'oidc-secret-55',
        'pass-word-99',
        'static-token-1234'
      ].sort()
    )
    const exec = tokenUser([
      'exec:',
      '  command: get-token',
      '  env: [{name: AWS_PROFILE, value: production}, {name: API_TOKEN, value: exec-env-secret}]'
    ])
    const fromExec: string[] = []
    await load({ kubeconfig: exec }, fromExec)
    expect(fromExec).toEqual(['exec-env-secret'])
  })

  it('every user of every merged file, and userinfo in server and proxy-url', async () => {
    const dir = folder({
      first: tokenUser(['token: first-file-token'], 'https://admin:srv-pass-91f3@127.0.0.1:2'),
      second: tokenUser(['password: second-file-pass']).replace(
        '    server: https://127.0.0.1:2',
        '    server: https://127.0.0.1:2\n    proxy-url: http://p:proxy-pass-27ab@127.0.0.1:3'
      )
    })
    const masked: string[] = []
    const loaded = await load(
      { env: { HOME: home, KUBECONFIG: `${join(dir, 'first')}:${join(dir, 'second')}` } },
      masked
    )
    expect(loaded.server).toBe('https://127.0.0.1:2')
    expect(masked).toEqual(
      expect.arrayContaining([
        'first-file-token',
        'second-file-pass',
        'admin:srv-pass-91f3',
        'srv-pass-91f3',
        'p:proxy-pass-27ab',
        'proxy-pass-27ab'
      ])
    )
  })

  it('a file that does not parse: its credential values from the raw text, none in the message', async () => {
    const dir = folder({
      config: 'users:\n- name: u\n  user:\n    token: "raw-token-abc"\n  bad: [unclosed\n'
    })
    const masked: string[] = []
    const error = await refusal({ env: { HOME: home, KUBECONFIG: join(dir, 'config') } }, masked)
    expect(error.message).toMatch(new RegExp(`^Invalid kubeconfig ${join(dir, 'config')}: `))
    expect(error.message).not.toContain('raw-token-abc')
    expect(masked).toEqual(['raw-token-abc'])
  })

  it('masks before a structure check refuses the text', async () => {
    const masked: string[] = []
    await refusal(
      { kubeconfig: 'users: [{name: u, user: {token: early-token-1}}]\nclusters: [{name: c}]\n' },
      masked
    )
    expect(masked).toEqual(['early-token-1'])
  })
})

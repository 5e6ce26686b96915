// route-gate reads the kubeconfig itself (kubeconfig-text.ts, kubeconfig.ts) as kubectl does: its
// fields in clientcmd's types, relative paths against the file's directory, kubectl's first-wins
// merge of KUBECONFIG files, the in-cluster service account, kubectl's refusals naming the field, and
// every credential masked before anything could print it. (Held against kubectl itself:
// test/integration/kubeconfig-kubectl.test.ts.)
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadKubeConfig, type KubeConfigSource } from '../../../src/cluster/kubeconfig.ts'
import { readKubeconfigText } from '../../../src/cluster/kubeconfig-text.ts'
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
    const dir = folder({})
    const read = await readKubeconfigText({
      text: EVERY_FIELD,
      label: 'Invalid kubeconfig',
      dir,
      mask: () => {}
    })
    expect(read.clusters[0]).toEqual({
      name: 'prod',
      server: 'https://api.example:6443/',
      caData: undefined,
      caFile: join(dir, 'pki/ca.crt'),
      skipTLSVerify: true,
      tlsServerName: 'api.internal',
      proxyUrl: 'http://proxy.example:3128',
      disableCompression: false,
      execExtension: undefined
    })
    expect(read.users[0]).toEqual({
      name: 'deployer',
      token: 'static-token-1234',
      tokenFile: join(dir, 'token'),
      username: 'admin',
      password: 'pass-word-99',
      certData: 'Y2VydA==',
      certFile: join(dir, 'pki/client.crt'),
      keyData: 'a2V5LWRhdGEtdmFsdWU=',
      keyFile: '/abs/client.key',
      exec: { apiVersion: 'client.authentication.k8s.io/v1', command: 'get-token' },
      authProvider: { name: 'oidc', config: { 'client-secret': 'oidc-secret-55' } },
      impersonate: 'impersonated',
      impersonateUid: undefined,
      impersonateGroups: undefined,
      impersonateExtra: undefined
    })
    expect(read.contexts).toEqual([
      { name: 'ci', cluster: 'prod', user: 'deployer', namespace: 'shop' }
    ])
    // kubectl refuses such a user: one line naming every conflict
    const error = await refusal({ kubeconfig: EVERY_FIELD })
    expect(error.message).toBe(
      'Invalid kubeconfig: cluster "prod" gives a certificate authority and insecure-skip-tls-verify: kubectl allows one; user "deployer" gives both a token and a username/password: kubectl allows one authentication method; user "deployer" gives both client-certificate and client-certificate-data; user "deployer" gives both client-key and client-key-data; user "deployer" gives both exec and auth-provider; user "deployer"\'s exec plugin has no interactiveMode, which kubectl requires of client.authentication.k8s.io/v1; user "deployer"\'s auth-provider "oidc" has no idp-issuer-url, which kubectl requires; user "deployer"\'s auth-provider "oidc" has no client-id, which kubectl requires'
    )
  })

  it('checks every file the context names, relative to the kubeconfig file', async () => {
    const dir = folder({
      config: tokenUser(['client-certificate: pki/client.crt', 'client-key: /abs/client.key']),
      'pki/client.crt': 'CERT'
    })
    const error = await refusal({ env: { HOME: home, KUBECONFIG: join(dir, 'config') } })
    expect(error.message).toBe(
      'Invalid kubeconfig (context "c"): user "u" client-key /abs/client.key: no such file'
    )
  })

  it("ignores client-node's token-file, as kubectl does, and leaves the input's relative paths as written", async () => {
    const error = await refusal({ kubeconfig: tokenUser(['token-file: relative/token']) })
    expect(error.message).toBe(
      'Invalid kubeconfig: context "c" has no credentials: kubectl would prompt for a username and password'
    )
    const relative = await refusal({ kubeconfig: tokenUser(['tokenFile: relative/token']) })
    expect(relative.message).toBe(
      'Invalid kubeconfig (context "c"): user "u" tokenFile relative/token: no such file'
    )
  })

  it('skips TLS verification for a YAML true (YAML 1.1: yes too); a string is refused', async () => {
    const withInsecure = (value: string): string =>
      tokenUser(['token: abc']).replace(
        '    server: https://127.0.0.1:2',
        `    server: https://127.0.0.1:2\n    insecure-skip-tls-verify: ${value}`
      )
    for (const [value, skip] of [
      ['true', true],
      ['yes', true],
      ['false', false],
      ['off', false]
    ] as const) {
      expect((await load({ kubeconfig: withInsecure(value) })).cluster.skipTLSVerify, value).toBe(
        skip
      )
    }
    expect((await refusal({ kubeconfig: withInsecure('"true"') })).message).toBe(
      'Invalid kubeconfig: clusters[0].cluster.insecure-skip-tls-verify is a string, not true or false, which kubectl refuses too'
    )
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
        'contexts:\n- name: other\n  context: {cluster: c, user: u}\n- name: c\n'
      )
    const dir = folder({ first, second })
    const env = {
      HOME: home,
      KUBECONFIG: `${join(dir, 'first')}:${join(dir, 'missing')}:${join(dir, 'second')}`
    }
    const warnings: string[] = []
    const loaded = await load({ env, warn: (w) => warnings.push(w) })
    expect(warnings).toEqual([
      `KUBECONFIG names files that do not exist, skipped as kubectl skips them: ${join(dir, 'missing')}`
    ])
    // current-context from the second file, the only one to set it; cluster and user from the first
    expect(loaded.contextName).toBe('c')
    expect(loaded.cluster.server).toBe('https://first:6443')
    expect(loaded.user.token).toBe('first-token')
    const other = await load({ env, context: 'other' })
    expect(other.user.token).toBe('first-token')
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
    // client-go's InClusterConfig: https whatever the port
    const plain = await load({
      env: { ...env, KUBERNETES_SERVICE_HOST: '10.0.0.1', KUBERNETES_SERVICE_PORT: '8080' },
      serviceAccountDir: folder({ token: 't', 'ca.crt': 'CA' })
    })
    expect(plain).toMatchObject({ server: 'https://10.0.0.1:8080', defaultNamespace: 'default' })
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
    ['clusters: {c: {server: x}}', 'clusters is a mapping, not a list, which kubectl refuses too'],
    [
      'clusters: [{name: c, cluster: {server: [a]}}]',
      'clusters[0].cluster.server is a list, not a string, which kubectl refuses too'
    ],
    [
      'users: [{name: u, user: {exec: get-token}}]',
      'users[0].user.exec is a string, not a mapping, which kubectl refuses too'
    ],
    [
      'users: [{name: u, user: {password: 0123}}]',
      'users[0].user.password is a number, not a string, which kubectl refuses too'
    ],
    [
      'users: [{name: u, user: {client-key-data: "not base64"}}]',
      'users[0].user.client-key-data is not base64, which kubectl refuses too'
    ],
    [
      'contexts: [{name: c, context: {cluster: c, namespace: {a: b}}}]',
      'contexts[0].context.namespace is a mapping, not a string, which kubectl refuses too'
    ],
    ['users: [{name: u}, {name: u}]', 'users has two entries named "u", which kubectl refuses too'],
    ['- a list', 'the document is a list, not a mapping, which kubectl refuses too'],
    ['a: *unknown\n', 'line 1, column 4: invalid YAML: unknown anchor …']
  ])('%s: %s', async (text, problem) => {
    const error = await refusal({ kubeconfig: text })
    expect(error).toBeInstanceOf(InputError)
    expect(error.message).toBe(`Invalid kubeconfig: ${problem}`)
  })

  it('checks only the context it uses, as kubectl does', async () => {
    const unused = `${tokenUser(['token: abc'])}clusters: [{name: c, cluster: {server: https://127.0.0.1:2}}, {cluster: {}}]\n`
    expect((await load({ kubeconfig: unused })).server).toBe('https://127.0.0.1:2')
    for (const [text, problem] of [
      [
        tokenUser(['token: abc']).replace(
          '    server: https://127.0.0.1:2\n',
          '    tls-server-name: x\n'
        ),
        'cluster "c" has no server'
      ],
      [
        tokenUser(['token: abc']).replace('{cluster: c, user: u}', '{user: u}'),
        'context "c" names no cluster: kubectl would try http://localhost:8080'
      ],
      [
        tokenUser(['as-groups: [a]', 'token: abc']),
        'user "u" asks for as-uid, as-groups or as-user-extra without "as", the user to act as'
      ],
      [
        tokenUser([
          'exec: {command: x, apiVersion: client.authentication.k8s.io/v1, interactiveMode: Always}'
        ]),
        'user "u"\'s exec plugin asks for a terminal (interactiveMode Always), which a gate has not'
      ]
    ]) {
      expect((await refusal({ kubeconfig: text })).message).toBe(`Invalid kubeconfig: ${problem}`)
    }
  })

  it('a relative exec command in the kubeconfig input: refused, it would run from the checked-out code', async () => {
    const text = tokenUser([
      'exec: {command: ./plugin.sh, apiVersion: client.authentication.k8s.io/v1, interactiveMode: Never}'
    ])
    expect((await refusal({ kubeconfig: text })).message).toBe(
      'Invalid kubeconfig: the exec plugin command "./plugin.sh" is a relative path, which the kubeconfig input (no file) would resolve against the working directory, the checked-out code: give an absolute path, or a bare name found in PATH'
    )
  })

  it('KUBECONFIG naming only missing files: refused, never ~/.kube/config', async () => {
    const user = mkdtempSync(join(tmpdir(), 'route-gate-home-'))
    mkdirSync(join(user, '.kube'))
    writeFileSync(join(user, '.kube', 'config'), tokenUser(['token: home-token-77']))
    const error = await refusal({
      env: { HOME: user, KUBECONFIG: '/nonexistent/a:/nonexistent/b' }
    })
    expect(error).toBeInstanceOf(InputError)
    expect(error.message).toBe(
      'KUBECONFIG names no file that exists (/nonexistent/a:/nonexistent/b): kubectl would read no kubeconfig, not ~/.kube/config, and try http://localhost:8080; fix or unset KUBECONFIG'
    )
  })

  it('names the file it came from', async () => {
    const dir = folder({ config: 'clusters: [{name: c, cluster: {server: 1}}]\n' })
    const error = await refusal({ env: { HOME: home, KUBECONFIG: join(dir, 'config') } })
    expect(error.message).toBe(
      `Invalid kubeconfig ${join(dir, 'config')}: clusters[0].cluster.server is a number, not a string, which kubectl refuses too`
    )
  })

  it('a context that names no cluster, and no context at all', async () => {
    const missing = tokenUser(['token: abc']).replace('{cluster: c,', '{cluster: gone,')
    expect((await refusal({ kubeconfig: missing })).message).toBe(
      'Invalid kubeconfig: context "c" names cluster "gone", which the kubeconfig does not define: kubectl would try http://localhost:8080'
    )
    const none = tokenUser(['token: abc']).replace('current-context: c\n', '')
    expect((await refusal({ kubeconfig: none })).message).toBe(
      'The kubeconfig has no current context; set the context input (contexts: c)'
    )
    const gone = tokenUser(['token: abc']).replace(
      'current-context: c\n',
      'current-context: gone\n'
    )
    expect((await refusal({ kubeconfig: gone })).message).toBe(
      'The kubeconfig\'s current-context "gone" is none of its contexts (c); set the context input'
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
    await readKubeconfigText({
      text: EVERY_FIELD,
      label: 'Invalid kubeconfig',
      mask: (s) => masked.push(s)
    })
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
      '  apiVersion: client.authentication.k8s.io/v1',
      '  interactiveMode: Never',
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

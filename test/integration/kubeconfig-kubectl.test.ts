// route-gate's kubeconfig resolution held against kubectl's own (the plane's kubectl, client-go
// v0.35): a table of kubeconfigs, each run through `kubectl get --raw` and `route-gate dump` against
// a loopback server that records what each sent. Both must reach the same server with the same TLS
// server name, client certificate, Authorization and Impersonate-* headers, and run an exec plugin
// with the same KUBERNETES_EXEC_INFO and env; or both must send nothing (kubectl refusing the file,
// or falling back where route-gate refuses with exit 2). kubectl's outcome is asserted too, so the
// table cannot pass with both tools refusing everything.
import { spawn } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/action.ts'
import { cachedTool } from '../helpers/cached-tools.ts'
import {
  makePki,
  unexpiredIdToken,
  startRecordingServer,
  type RecordingServer,
  type Seen,
  type TestPki
} from '../helpers/recording-server.ts'

/** kubectl with no terminal and an empty standard input, as in CI: a prompt reads end of file. */
function runKubectl(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(kubectl, args, {
      env,
      cwd,
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: 30_000
    })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve(`exit ${code}: ${stderr.trim().split('\n').pop() ?? ''}`))
  })
}

interface Case {
  name: string
  /** the kubeconfig, with {https}, {http}, {hostport}, {ca}, {otherCa}, {cert}, {key} filled in */
  config: string
  /** what kubectl does with it: reaches the server, or sends nothing */
  kubectl: 'sends' | 'sends nothing'
  /** KUBECONFIG, relative to the case directory; default: config */
  kubeconfigEnv?: string
  /** more files in the case directory */
  files?: Record<string, string>
  /** ~/.kube/config of the run, when a case needs one */
  home?: string
  /** --context, given to both */
  context?: string
}

const cluster = (lines: string[] = [], server = '{https}'): string =>
  [
    'clusters:',
    '- name: c',
    '  cluster:',
    `    server: ${server}`,
    ...lines.map((l) => `    ${l}`)
  ].join('\n')
const user = (lines: string[]): string =>
  ['users:', '- name: u', '  user:', ...lines.map((l) => `    ${l}`)].join('\n')
const context = 'contexts:\n- name: c\n  context: {cluster: c, user: u}\ncurrent-context: c'
const config = (clusterLines: string[], userLines: string[], server?: string): string =>
  `${cluster(clusterLines, server)}\n${user(userLines)}\n${context}\n`

const CA = ['certificate-authority-data: {ca}']
const TOKEN = ['token: inline-token-abcdef']
const CERT = ['client-certificate-data: {cert}', 'client-key-data: {key}']
const exec = (lines: string[], version = 'client.authentication.k8s.io/v1'): string[] => [
  'exec:',
  `  apiVersion: ${version}`,
  '  command: ./plugin.sh',
  `  args: [${version}]`,
  ...lines.map((l) => `  ${l}`)
]

const ID_TOKEN = unexpiredIdToken()

const CASES: Case[] = [
  { name: 'an inline token', config: config(CA, TOKEN), kubectl: 'sends' },
  {
    name: 'a token and a tokenFile: the file wins',
    config: config(CA, [...TOKEN, 'tokenFile: token']),
    kubectl: 'sends'
  },
  { name: 'a tokenFile, trimmed', config: config(CA, ['tokenFile: token']), kubectl: 'sends' },
  {
    name: 'a token and a tokenFile that is missing: the token',
    config: config(CA, [...TOKEN, 'tokenFile: missing-token']),
    kubectl: 'sends'
  },
  {
    name: 'an empty tokenFile',
    config: config(CA, ['tokenFile: empty-token']),
    files: { 'empty-token': '' },
    kubectl: 'sends nothing'
  },
  {
    name: 'basic auth',
    config: config(CA, ['username: admin', 'password: pass-word-99']),
    kubectl: 'sends'
  },
  {
    name: 'a password without a username: no one',
    config: config(CA, ['password: pass-word-99']),
    kubectl: 'sends nothing'
  },
  {
    name: 'a username without a password',
    config: config(CA, ['username: admin']),
    kubectl: 'sends'
  },
  {
    name: 'an exec plugin beside a password only: run',
    config: config(CA, ['password: pass-word-99', ...exec(['interactiveMode: Never'])]),
    kubectl: 'sends'
  },
  {
    name: 'a token and basic auth',
    config: config(CA, [...TOKEN, 'username: admin', 'password: pass-word-99']),
    kubectl: 'sends nothing'
  },
  { name: 'client certificate data', config: config(CA, CERT), kubectl: 'sends' },
  {
    name: 'client certificate files, relative to the kubeconfig',
    config: config(
      ['certificate-authority: ca.crt'],
      ['client-certificate: client.crt', 'client-key: client.key']
    ),
    kubectl: 'sends'
  },
  {
    name: 'client certificate file and data',
    config: config(CA, [...CERT, 'client-certificate: client.crt']),
    kubectl: 'sends nothing'
  },
  {
    name: 'a client certificate without its key',
    config: config(CA, [CERT[0]!]),
    kubectl: 'sends nothing'
  },
  { name: 'a CA that signed the server', config: config(CA, TOKEN), kubectl: 'sends' },
  {
    name: 'a CA that did not sign the server',
    config: config(['certificate-authority-data: {otherCa}'], TOKEN),
    kubectl: 'sends nothing'
  },
  { name: 'no CA: the system roots', config: config([], TOKEN), kubectl: 'sends nothing' },
  {
    name: 'insecure-skip-tls-verify: true',
    config: config(['insecure-skip-tls-verify: true'], TOKEN),
    kubectl: 'sends'
  },
  {
    name: 'insecure-skip-tls-verify: yes (YAML 1.1)',
    config: config(['insecure-skip-tls-verify: yes'], TOKEN),
    kubectl: 'sends'
  },
  {
    name: 'insecure-skip-tls-verify: "true" (a string)',
    config: config(['insecure-skip-tls-verify: "true"'], TOKEN),
    kubectl: 'sends nothing'
  },
  {
    name: 'a CA and insecure-skip-tls-verify',
    config: config([...CA, 'insecure-skip-tls-verify: true'], TOKEN),
    kubectl: 'sends nothing'
  },
  {
    name: 'a CA file and CA data',
    config: config([...CA, 'certificate-authority: ca.crt'], TOKEN),
    kubectl: 'sends nothing'
  },
  {
    name: 'tls-server-name',
    config: config([...CA, 'tls-server-name: api.internal'], TOKEN),
    kubectl: 'sends'
  },
  {
    name: 'impersonation: user, uid, groups and extras',
    config: config(CA, [
      ...TOKEN,
      'as: jane',
      'as-uid: uid-42',
      'as-groups: [developers, "ops team"]',
      'as-user-extra: {scopes: [view, edit], "reason/why": [audit]}'
    ]),
    kubectl: 'sends'
  },
  {
    name: 'as-groups without as',
    config: config(CA, [...TOKEN, 'as-groups: [developers]']),
    kubectl: 'sends nothing'
  },
  {
    name: 'an exec plugin, relative to the kubeconfig, with env',
    config: config(
      CA,
      exec(['interactiveMode: Never', 'env: [{name: PLUGIN_SETTING, value: from-kubeconfig}]'])
    ),
    kubectl: 'sends'
  },
  {
    name: 'a v1 exec plugin without interactiveMode',
    config: config(CA, exec([])),
    kubectl: 'sends nothing'
  },
  {
    name: 'a v1beta1 exec plugin without interactiveMode',
    config: config(CA, exec([], 'client.authentication.k8s.io/v1beta1')),
    kubectl: 'sends'
  },
  {
    name: 'an exec plugin told the cluster (provideClusterInfo)',
    config: config(
      [
        ...CA,
        'tls-server-name: api.internal',
        'extensions: [{name: client.authentication.k8s.io/exec, extension: {audience: gate}}]'
      ],
      exec(['interactiveMode: IfAvailable', 'provideClusterInfo: true'])
    ),
    kubectl: 'sends'
  },
  {
    name: 'an exec plugin beside a token: not run',
    config: config(CA, [...TOKEN, ...exec(['interactiveMode: Never'])]),
    kubectl: 'sends'
  },
  {
    name: 'an exec plugin with an unknown apiVersion',
    config: config(CA, exec(['interactiveMode: Never'], 'client.authentication.k8s.io/v2')),
    kubectl: 'sends nothing'
  },
  {
    name: 'the oidc auth-provider with an unexpired id-token',
    config: config(CA, [
      'auth-provider:',
      '  name: oidc',
      `  config: {idp-issuer-url: "https://issuer.invalid", client-id: gate, id-token: "${ID_TOKEN}"}`
    ]),
    kubectl: 'sends'
  },
  {
    name: 'the oidc auth-provider without idp-issuer-url',
    config: config(CA, ['auth-provider: {name: oidc, config: {client-id: gate, id-token: x}}']),
    kubectl: 'sends nothing'
  },
  {
    name: 'the gcp auth-provider with a cmd-path (removed from kubectl)',
    config: config(CA, [
      'auth-provider:',
      '  name: gcp',
      `  config: {cmd-path: /bin/echo, cmd-args: '{"token": "gcp-token-abcdef"}', token-key: "{.token}"}`
    ]),
    kubectl: 'sends nothing'
  },
  {
    name: 'http://: no credentials, impersonation kept',
    config: config([], [...TOKEN, 'as: jane'], '{http}'),
    kubectl: 'sends'
  },
  {
    name: 'a server without a scheme: plain HTTP',
    config: config([], TOKEN, '{hostport}'),
    kubectl: 'sends'
  },
  {
    name: 'password: 0123 (a YAML 1.1 number)',
    config: config(CA, ['username: admin', 'password: 0123']),
    kubectl: 'sends nothing'
  },
  {
    name: 'two clusters of one name',
    config: config(CA, TOKEN).replace(
      'users:',
      '- name: c\n  cluster: {server: "{https}"}\nusers:'
    ),
    kubectl: 'sends nothing'
  },
  {
    name: 'a context whose user is missing',
    config: config(CA, TOKEN).replace('user: u}', 'user: gone}'),
    kubectl: 'sends nothing'
  },
  {
    name: 'a merge key in the user',
    config: `${cluster(CA)}\nbase: &base {token: merged-token-abcdef}\nusers:\n- name: u\n  user:\n    <<: *base\n${context}\n`,
    kubectl: 'sends'
  },
  {
    name: 'a key given twice: the last wins',
    config: config(CA, ['token: first-token-aaaaaa', 'token: last-token-bbbbbb']),
    kubectl: 'sends'
  },
  {
    name: 'a server with a path and a trailing slash',
    config: config(CA, TOKEN, '{https}/prefix/'),
    kubectl: 'sends'
  },
  {
    name: '--context choosing another context and its user',
    config: `${config(CA, TOKEN)}`
      .replace(
        'users:',
        '- name: other\n  cluster: {server: "{https}/other", certificate-authority-data: "{ca}"}\nusers:'
      )
      .replace(
        'contexts:',
        '- name: second\n  user: {token: second-token-abcdef}\ncontexts:\n- name: b\n  context: {cluster: other, user: second}'
      ),
    context: 'b',
    kubectl: 'sends'
  },
  {
    name: '--context naming no context',
    config: config(CA, TOKEN),
    context: 'nowhere',
    kubectl: 'sends nothing'
  },
  {
    name: 'KUBECONFIG naming only missing files, beside a ~/.kube/config',
    config: config(CA, TOKEN),
    kubeconfigEnv: 'missing-a:missing-b',
    home: config(CA, ['token: home-token-cccccc']),
    kubectl: 'sends nothing'
  },
  {
    name: 'KUBECONFIG naming a missing file and a present one',
    config: config(CA, TOKEN),
    kubeconfigEnv: 'missing-a:config',
    kubectl: 'sends'
  },
  {
    name: 'KUBECONFIG naming two files: the first to set a name wins',
    config: config(CA, ['token: second-file-token']),
    files: { first: `${user(['token: first-file-token'])}\ncurrent-context: c\n` },
    kubeconfigEnv: 'first:config',
    kubectl: 'sends'
  },
  {
    name: 'KUBECONFIG naming a directory',
    config: config(CA, TOKEN),
    kubeconfigEnv: 'subdir:config',
    files: { 'subdir/.keep': '' },
    kubectl: 'sends nothing'
  }
]

// records its setting and KUBERNETES_EXEC_INFO (kubectl's ends in a newline) as a base64 line each run
const PLUGIN = (record: string, token: string): string => `#!/bin/sh
{ printf '%s\\n' "$PLUGIN_SETTING"; printf '%s' "$KUBERNETES_EXEC_INFO"; } | base64 -w0 >> '${record}'
echo >> '${record}'
printf '{"apiVersion": "%s", "kind": "ExecCredential", "status": {"token": "${token}"}}' "$1"
`

let pki: TestPki
let server: RecordingServer
let kubectl: string
let root: string

beforeAll(async () => {
  ;[kubectl] = await Promise.all([cachedTool('kubectl')])
  pki = makePki()
  server = await startRecordingServer(pki)
  root = mkdtempSync(path.join(os.tmpdir(), 'route-gate-kubeconfig-kubectl-'))
})
afterAll(async () => {
  await server?.close()
  rmSync(root, { recursive: true, force: true })
})

interface Outcome {
  seen: Seen | undefined
  exec: unknown[]
  detail: string
}

function fill(text: string): string {
  const b64 = (data: Buffer): string => data.toString('base64')
  return text
    .replaceAll('{https}', server.https)
    .replaceAll('{http}', server.http)
    .replaceAll('{hostport}', server.http.replace('http://', ''))
    .replaceAll('{otherCa}', b64(pki.otherCa))
    .replaceAll('{ca}', b64(pki.ca))
    .replaceAll('{cert}', b64(pki.client.cert))
    .replaceAll('{key}', b64(pki.client.key))
}

/** The case's directory: the kubeconfig, its files, the plugin, and a planted plugin in cwd/. */
function lay(c: Case, i: number): { dir: string; cwd: string; home: string; record: string } {
  const dir = path.join(root, `case-${i}`)
  const cwd = path.join(dir, 'cwd')
  const home = path.join(dir, 'home')
  mkdirSync(cwd, { recursive: true })
  mkdirSync(path.join(home, '.kube'), { recursive: true })
  const record = path.join(dir, 'exec-record')
  const files: Record<string, string> = {
    config: fill(c.config),
    'ca.crt': pki.ca.toString(),
    'client.crt': pki.client.cert.toString(),
    'client.key': pki.client.key.toString(),
    token: 'file-token-dddddd\n',
    'plugin.sh': PLUGIN(record, 'exec-token-eeeeee'),
    'cwd/plugin.sh': PLUGIN(record, 'planted-token-ffffff'),
    ...Object.fromEntries(Object.entries(c.files ?? {}).map(([k, v]) => [k, fill(v)]))
  }
  if (c.home !== undefined) files['home/.kube/config'] = fill(c.home)
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true })
    writeFileSync(path.join(dir, name), text)
    if (name.endsWith('.sh')) chmodSync(path.join(dir, name), 0o755)
  }
  return { dir, cwd, home, record }
}

function execRecords(record: string): unknown[] {
  let text = ''
  try {
    text = readFileSync(record, 'utf8')
  } catch {
    return []
  }
  rmSync(record)
  return text
    .trim()
    .split('\n')
    .map((line) => {
      const [setting, ...info] = Buffer.from(line, 'base64').toString().split('\n')
      return { setting, info: JSON.parse(info.join('\n')) as unknown }
    })
}

async function through(tool: 'kubectl' | 'route-gate', c: Case, i: number): Promise<Outcome> {
  const { dir, cwd, home, record } = lay(c, i)
  const kubeconfigEnv = (c.kubeconfigEnv ?? 'config')
    .split(':')
    .map((file) => path.join(dir, file))
    .join(':')
  const env = { PATH: process.env.PATH ?? '', HOME: home, KUBECONFIG: kubeconfigEnv }
  const context = c.context === undefined ? [] : ['--context', c.context]
  server.take()
  let detail: string
  if (tool === 'kubectl') {
    detail = await runKubectl(
      ['get', '--raw', '/version', '--request-timeout=5s', ...context],
      env,
      cwd
    )
  } else {
    const result = await runCli(['dump', '-o', path.join(dir, 'dump.yaml'), ...context], {
      env,
      cwd
    })
    detail = `exit ${result.code}: ${result.stderr.trim().split('\n').pop()}`
  }
  return { seen: server.take()[0], exec: execRecords(record), detail }
}

describe('kubeconfigs resolved as kubectl resolves them', () => {
  const tally = { sent: 0, refused: 0 }
  afterAll(() => {
    console.log(
      `kubeconfig differential: ${CASES.length} kubeconfigs; sent alike by both: ${tally.sent}, refused by both: ${tally.refused}, resolved differently: ${CASES.length - tally.sent - tally.refused}`
    )
  })

  it.each(CASES.map((c, i) => [c.name, c, i] as const))('%s', async (_name, c, i) => {
    const theirs = await through('kubectl', c, i)
    const ours = await through('route-gate', c, i)
    const outcome = theirs.seen === undefined ? 'sends nothing' : 'sends'
    expect(outcome, `kubectl: ${theirs.detail}`).toBe(c.kubectl)
    expect(ours.seen, `route-gate: ${ours.detail}; kubectl: ${theirs.detail}`).toEqual(theirs.seen)
    expect(ours.exec).toEqual(theirs.exec)
    // a refusal is exit 2 (the kubeconfig) or 3 (TLS); a request sent is answered 403: exit 3
    expect(ours.detail).toMatch(/^exit [23]: /)
    tally[outcome === 'sends' ? 'sent' : 'refused'] += 1
  })
})

// The credentials route-gate reads from a kubeconfig itself, against the real API server: a service
// account's token inline, in a token file named relative to the kubeconfig, and printed by an exec
// plugin. The account may read nothing, so the API server's 403 names the user it authenticated:
// proof the token reached it. A wrong token is a 401. (Client certificates: rbac.test.ts.)
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { runCli } from '../helpers/action.ts'
import { clusterEnv, kube, testNamespace } from '../helpers/cluster.ts'
import { clusterPki } from '../helpers/fault-proxy.ts'

let dir: string
let namespace: string
let token: string

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'route-gate-credentials-'))
  namespace = await testNamespace('credentials')
  await kube().core.createNamespacedServiceAccount({
    namespace,
    body: { metadata: { name: 'gate' } }
  })
  const request = await kube().core.createNamespacedServiceAccountToken({
    name: 'gate',
    namespace,
    body: { spec: { audiences: [], expirationSeconds: 600 } }
  })
  token = request.status?.token ?? ''
  if (token.length < 20) throw new Error('the API server issued no token for the service account')
})
afterAll(() => rm(dir, { recursive: true, force: true }))

/** A kubeconfig file in `dir` for the test cluster whose user is `user` (YAML lines). */
async function kubeconfigWith(file: string, user: string[]): Promise<string> {
  const ca = clusterPki(clusterEnv()).ca.toString('base64')
  const text = [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: test',
    `  cluster: {server: "${clusterEnv().apiServer}", certificate-authority-data: ${ca}}`,
    'users:',
    '- name: gate',
    '  user:',
    ...user.map((line) => `    ${line}`),
    'contexts:',
    '- name: test',
    `  context: {cluster: test, user: gate, namespace: ${namespace}}`,
    'current-context: test'
  ].join('\n')
  const at = path.join(dir, file)
  await writeFile(at, `${text}\n`)
  return at
}

async function dumpWith(kubeconfig: string): Promise<{ code: number | null; output: string }> {
  const result = await runCli(['dump', '-o', '-'], { env: { KUBECONFIG: kubeconfig, HOME: dir } })
  return { code: result.code, output: result.stdout + result.stderr }
}

interface Case {
  how: string
  /** the kubeconfig's user lines */
  user: () => string[]
  /** a file beside the kubeconfig, with its text */
  beside?: { name: string; text: () => string }
}

const EXEC_CREDENTIAL = (secret: string): string =>
  JSON.stringify({
    apiVersion: 'client.authentication.k8s.io/v1',
    kind: 'ExecCredential',
    status: { token: secret }
  })

const CASES: Case[] = [
  { how: 'inline', user: () => [`token: ${token}`] },
  {
    how: 'in a token file named relative to the kubeconfig',
    user: () => ['tokenFile: sa-token'],
    beside: { name: 'sa-token', text: () => token }
  },
  {
    how: 'from an exec plugin',
    user: () => [
      'exec:',
      '  apiVersion: client.authentication.k8s.io/v1',
      '  command: /bin/sh',
      `  args: ["-c", ${JSON.stringify(`printf '%s' '${EXEC_CREDENTIAL(token)}'`)}]`,
      '  interactiveMode: Never'
    ]
  }
]

describe('kubeconfig credentials against the real API server', () => {
  it.each(CASES.map((c, i) => ({ ...c, file: `config-${i}.yaml` })))(
    'a service account token $how reaches the API server, and is never shown',
    async ({ user, beside, file }) => {
      if (beside) await writeFile(path.join(dir, beside.name), beside.text())
      const { code, output } = await dumpWith(await kubeconfigWith(file, user()))
      expect(output).toContain(`user system:serviceaccount:${namespace}:gate`)
      expect(output).toContain('forbidden')
      expect(code).toBe(3)
      expect(output).not.toContain(token)
    }
  )

  it('a wrong token is refused as unauthorized, exit 3', async () => {
    const wrong = await kubeconfigWith('wrong.yaml', ['token: not-the-token-at-all'])
    const { code, output } = await dumpWith(wrong)
    expect(output).toContain('unauthorized')
    expect(output).toContain('rejected the credentials')
    expect(code).toBe(3)
  })
})

// Cluster trouble at the start ends the run with exit 3 within seconds, not at --timeout, in one line
// that names the server, the context and what to check. Each server here is on loopback or inside a
// network namespace the test makes: a closed port, a name the namespace's own DNS server answers with
// NXDOMAIN, a TLS server whose certificate the kubeconfig's CA did not sign, and servers answering 401
// and 403. The committed bundles run as users run them.
import { mkdtemp, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ENV_FILE_VARIABLE, envFilePath } from '../cluster/env.ts'
import { runAction, runCli, type ProcessResult } from '../helpers/action.ts'
import { clusterEnv } from '../helpers/cluster.ts'
import { startIsolatedRunner, type IsolatedRunner } from '../helpers/isolated-runner.ts'
import { closedPort, makeTestPki, startServer, type TestServer } from '../helpers/probe-servers.ts'

const clusterDir = path.dirname(process.env[ENV_FILE_VARIABLE] ?? envFilePath())
/** far beyond what any of these runs may take: a run that waits for it shows as a test timeout */
const TIMEOUT = '5m'

function kubeconfig(server: string, cluster: string): string {
  return `apiVersion: v1
kind: Config
clusters:
- name: ci
  cluster:
    server: ${server}
${cluster}
users:
- name: ci
  user:
    token: route-gate-test-token
contexts:
- name: ci-context
  context: {cluster: ci, user: ci}
current-context: ci-context
`
}

const INSECURE = '    insecure-skip-tls-verify: true'

async function kubeconfigFile(text: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'route-gate-fast-'))
  const file = path.join(dir, 'kubeconfig')
  await writeFile(file, text, { mode: 0o600 })
  return file
}

async function check(text: string, prefix?: string[]): Promise<ProcessResult> {
  const file = await kubeconfigFile(text)
  return runCli(['check', '--routes', 'httproute/shop/web', '--timeout', TIMEOUT], {
    env: { KUBECONFIG: file },
    ...(prefix && { prefix })
  })
}

/** exit 3, nothing on stdout, and one line on stderr */
function failedFast(result: ProcessResult): string {
  expect(result.code, result.stderr).toBe(3)
  expect(result.stdout).toBe('')
  const lines = result.stderr.trimEnd().split('\n')
  expect(lines).toHaveLength(1)
  return lines[0]!
}

const servers: TestServer[] = []
let runner: IsolatedRunner | undefined
beforeAll(async () => {
  runner = await startIsolatedRunner(clusterDir, [], 80, clusterEnv().apiServer, { nxdomain: true })
})
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()))
  await runner?.stop()
})

describe('cluster trouble at the start', () => {
  it('a closed port: connection refused, named with server and context, in seconds', async () => {
    const port = await closedPort()
    const line = failedFast(await check(kubeconfig(`https://127.0.0.1:${port}`, INSECURE)))
    expect(line).toMatch(
      new RegExp(
        `^route-gate: cannot reach https://127\\.0\\.0\\.1:${port} \\(context ci-context\\): connection refused \\(ECONNREFUSED\\) \\(still, after 3 s of retries\\); nothing accepts connections there: check that the API server runs and that the kubeconfig's server address and port are right$`
      )
    )
  })

  it('a name that does not resolve (NXDOMAIN): at once, never retried', async () => {
    const result = await check(
      kubeconfig('https://api.route-gate-test.invalid:6443', INSECURE),
      runner!.prefix
    )
    expect(failedFast(result)).toBe(
      "route-gate: cannot reach https://api.route-gate-test.invalid:6443 (context ci-context): host not found (ENOTFOUND); the host name api.route-gate-test.invalid does not resolve: check the server address in the kubeconfig (and this runner's DNS)"
    )
  })

  it('a certificate the kubeconfig does not trust', async () => {
    const served = makeTestPki(['localhost'])
    const other = makeTestPki(['localhost'])
    const server = await startServer((_req, res) => res.end('{}'), served)
    servers.push(server)
    const ca = `    certificate-authority-data: ${Buffer.from(other.ca).toString('base64')}`
    const line = failedFast(await check(kubeconfig(`https://localhost:${server.port}`, ca)))
    expect(line).toMatch(
      /^route-gate: cannot reach https:\/\/localhost:\d+ \(context ci-context\): TLS certificate rejected \(\w+\): check the kubeconfig's certificate-authority/
    )
    expect(server.seen).toHaveLength(0)
  })

  it.each([
    [
      401,
      /^route-gate: unauthorized: https:\/\/127\.0\.0\.1:\d+ \(context ci-context\) rejected the credentials \(.*\); check the kubeconfig user's token or certificate$/
    ],
    [
      403,
      /^route-gate: forbidden: cannot \w+ .* \(user ci-bot\) on https:\/\/127\.0\.0\.1:\d+ \(context ci-context\)$/
    ]
  ])('an API server that answers %i', async (status, expected) => {
    const server = await startServer(
      (_req, res) => {
        res.writeHead(status, { 'content-type': 'application/json' })
        res.end(
          JSON.stringify({
            kind: 'Status',
            apiVersion: 'v1',
            status: 'Failure',
            reason: status === 401 ? 'Unauthorized' : 'Forbidden',
            message: status === 401 ? 'Unauthorized' : 'User "ci-bot" cannot list resource',
            code: status
          })
        )
      },
      makeTestPki(['localhost'])
    )
    servers.push(server)
    const line = failedFast(await check(kubeconfig(`https://127.0.0.1:${server.port}`, INSECURE)))
    expect(line).toMatch(expected)
  })

  it('the Action says the same in the step log, with exit 3, and the verdict output error', async () => {
    const port = await closedPort()
    const file = await kubeconfigFile(kubeconfig(`https://127.0.0.1:${port}`, INSECURE))
    const result = await runAction(
      { routes: 'httproute/shop/web', timeout: TIMEOUT },
      { env: { KUBECONFIG: file } }
    )
    expect(result.code).toBe(3)
    expect(result.stdout).toMatch(
      new RegExp(
        `::error::route-gate: cannot reach https://127\\.0\\.0\\.1:${port} \\(context ci-context\\): connection refused`
      )
    )
    expect(result.outputs.verdict).toBe('error')
  })
})

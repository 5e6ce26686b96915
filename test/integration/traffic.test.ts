// verify-traffic against the real control plane, through the committed Action bundle, and the
// network-namespace backends the data-plane scenarios use. Traffic goes only to loopback or into
// namespaces the harness makes.
import { execFileSync } from 'node:child_process'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { Report } from '../../src/model/types.ts'
import { ENV_FILE_VARIABLE, envFilePath } from '../cluster/env.ts'
import { runAction, type ActionResult } from '../helpers/action.ts'
import { applyYaml, clusterEnv, kube, testHostname, testNamespace } from '../helpers/cluster.ts'
import {
  backendYaml,
  removeTestNetworks,
  startNetnsBackend,
  type NetnsBackend
} from '../helpers/netns.ts'
import { expectValidReport } from '../helpers/schema.ts'

const clusterDir = path.dirname(process.env[ENV_FILE_VARIABLE] ?? envFilePath())
const backends: NetnsBackend[] = []
afterAll(async () => {
  await Promise.all(backends.splice(0).map((b) => b.stop()))
})

async function backend(): Promise<NetnsBackend> {
  const started = await startNetnsBackend(clusterDir)
  backends.push(started)
  return started
}

async function gate(inputs: Record<string, string>, files: Record<string, string> = {}) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'route-gate-traffic-'))
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text)
  return runAction(inputs, { env: { KUBECONFIG: clusterEnv().kubeconfig }, cwd: dir })
}

async function reportOf(result: ActionResult): Promise<Report> {
  const report = JSON.parse(await readFile(result.outputs['report-file']!, 'utf8')) as Report
  expectValidReport(report)
  return report
}

const netnsList = (): string => execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' })

describe('network-namespace backends', () => {
  it('answer over their veth, are accepted as EndpointSlice addresses, and are removed', async () => {
    const b = await backend()
    expect(b.address).toMatch(/^10\.213\.\d+\.\d+$/)
    b.answer({ default: { status: 418, body: 'teapot' } })
    const answer = await fetch(`http://${b.address}:${b.port}/probe`)
    expect([answer.status, await answer.text()]).toEqual([418, 'teapot'])
    expect(b.requests()).toEqual([expect.objectContaining({ method: 'GET', url: '/probe' })])

    const ns = await testNamespace('traffic-netns')
    await applyYaml(backendYaml('web', b), ns)
    const slices = await kube().objects.list('discovery.k8s.io/v1', 'EndpointSlice', ns)
    expect(JSON.stringify(slices.items)).toContain(b.address)

    expect(netnsList()).toContain(b.netns)
    await b.stop()
    backends.splice(backends.indexOf(b), 1)
    expect(netnsList()).not.toContain(b.netns)
  })

  it('left behind by a test are removed with the cluster (cluster:down)', async () => {
    const leftover = await startNetnsBackend(clusterDir)
    expect(netnsList()).toContain(leftover.netns)
    expect(removeTestNetworks(clusterDir)).toBeGreaterThanOrEqual(1)
    expect(netnsList()).not.toContain(leftover.netns)
  })
})

describe('verify-traffic through the committed Action bundle', () => {
  it('an address nobody listens on: unreachable, exit 1 at the deadline, names gateway-address', async () => {
    const ns = await testNamespace('traffic-unreachable')
    const gw = clusterEnv().gateway
    const route = `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
spec:
  parentRefs:
  - name: ${gw.name}
    namespace: ${gw.namespace}
    sectionName: http
  hostnames: [${testHostname(ns, 'web')}]
  rules:
  - backendRefs:
    - name: web
      port: 8080
`
    const service = backendYaml('web', { address: '10.213.255.254', port: 8080 }).split('---')[0]
    const result = await gate(
      {
        manifests: 'app.yaml',
        namespace: ns,
        timeout: '8s',
        'verify-traffic': 'true',
        // loopback, where nothing listens on the listener's port 80
        'gateway-address': '127.0.0.77'
      },
      { 'app.yaml': `${service}---\n${route}` }
    )
    expect(result.code, result.stdout).toBe(1)
    const report = await reportOf(result)
    expect(report.timedOut).toBe(true)
    const parent = report.routes[0]?.parents[0]
    expect(parent).toMatchObject({
      verdict: 'failed',
      probe: { state: 'unreachable', last: { address: '127.0.0.77:80' } }
    })
    expect(parent?.probe?.last?.error).toMatch(/^ECONNREFUSED/)
    // the status was ready: only the probe failed the parent
    expect(parent?.conditions?.find((c) => c.type === 'Accepted')?.status).toBe('True')
    expect(parent?.problems.map((p) => p.reason)).toEqual(['Unreachable'])
    expect(result.summary).toContain('gateway-address')
    expect(result.summary).toMatch(/traffic: unreachable/)
  })
})

// The probe's target guard end to end: the committed Action bundle runs inside a network namespace
// whose only way out is a Unix-socket bridge to the test API server, beside recording servers on
// 169.254.169.254 (a metadata service address), 169.254.10.10 (link-local) and 198.51.100.7. A Gateway
// of a class no controller owns announces one of them in status.addresses, its HTTPRoute is marked
// ready by hand, and verify-traffic runs. Nothing here can send a packet outside loopback or that
// namespace, whatever the guard decides: the recording servers show what it decided.
import { mkdtemp, readFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Report } from '../../src/model/types.ts'
import { ENV_FILE_VARIABLE, envFilePath } from '../cluster/env.ts'
import { runAction, type ActionResult } from '../helpers/action.ts'
import { logOf } from '../helpers/gate.ts'
import {
  applyYaml,
  clusterEnv,
  createService,
  kube,
  testHostname,
  testNamespace,
  writeRouteStatus
} from '../helpers/cluster.ts'
import { startIsolatedRunner, type IsolatedRunner } from '../helpers/isolated-runner.ts'
import { httpRouteYaml } from '../helpers/manifest-files.ts'
import { expectValidReport } from '../helpers/schema.ts'

const clusterDir = path.dirname(process.env[ENV_FILE_VARIABLE] ?? envFilePath())
const METADATA = '169.254.169.254'
const LINK_LOCAL = '169.254.10.10'
const OTHER = '198.51.100.7'
const SECRET = '{"Code":"Success","AccessKeyId":"AKIA-ROUTE-GATE-TEST"}'
// ordinary names that the runner's own /etc/hosts maps onto the refused addresses (no DNS is asked)
const NAMED_METADATA = 'imds.route-gate.test'
const NAMED_LINK_LOCAL = 'edge.route-gate.test'

let runner: IsolatedRunner | undefined
beforeAll(async () => {
  runner = await startIsolatedRunner(
    clusterDir,
    [METADATA, LINK_LOCAL, OTHER],
    80,
    clusterEnv().apiServer,
    {
      nxdomain: true,
      hosts: { [NAMED_METADATA]: METADATA, [NAMED_LINK_LOCAL]: LINK_LOCAL }
    }
  )
  for (const server of runner.servers.values()) {
    // a metadata service's answer on the path the Route claims; 404 for anything else
    server.answer({
      default: { status: 404, body: 'not found' },
      paths: {
        '/latest/meta-data/': { status: 200, body: SECRET, contentType: 'application/json' }
      }
    })
  }
})
afterAll(async () => {
  await runner?.stop()
})

const requestsTo = (address: string): number => runner!.servers.get(address)?.requests().length ?? 0

/** A Gateway of the ownerless class announcing `address`, and a ready HTTPRoute on it. */
async function announcing(address: {
  type: 'IPAddress' | 'Hostname'
  value: string
}): Promise<string> {
  const ns = await testNamespace('guard')
  const other = clusterEnv().otherGateway
  await applyYaml(
    `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: edge
spec:
  gatewayClassName: ${other.gatewayClass}
  listeners:
  - name: http
    port: 80
    protocol: HTTP
`,
    ns
  )
  const coordinates = {
    group: 'gateway.networking.k8s.io',
    version: 'v1',
    namespace: ns,
    plural: 'gateways',
    name: 'edge'
  }
  const gateway = (await kube().custom.getNamespacedCustomObject(coordinates)) as Record<
    string,
    unknown
  >
  await kube().custom.replaceNamespacedCustomObjectStatus({
    ...coordinates,
    body: { ...gateway, status: { addresses: [address] } }
  })
  await createService(ns, 'meta', [{ port: 8080 }])
  await applyYaml(
    httpRouteYaml({
      name: 'meta',
      gateway: { namespace: ns, name: 'edge' },
      hostname: testHostname(ns),
      path: '{ type: PathPrefix, value: /latest/meta-data/ }',
      backend: 'meta'
    }),
    ns
  )
  await writeRouteStatus(
    'HTTPRoute',
    ns,
    'meta',
    {
      parents: [
        {
          parentRef: {
            group: 'gateway.networking.k8s.io',
            kind: 'Gateway',
            namespace: ns,
            name: 'edge'
          },
          conditions: [
            { type: 'Accepted', status: 'True', reason: 'Accepted', observedGeneration: 1 },
            { type: 'ResolvedRefs', status: 'True', reason: 'ResolvedRefs', observedGeneration: 1 }
          ]
        }
      ]
    },
    { controllerName: other.controllerName }
  )
  return ns
}

async function gateInside(ns: string, inputs: Record<string, string> = {}): Promise<ActionResult> {
  const cwd = await mkdtemp(path.join(os.tmpdir(), 'route-gate-guard-'))
  return runAction(
    { routes: `httproute/${ns}/meta`, timeout: '40s', 'verify-traffic': 'true', ...inputs },
    { env: { KUBECONFIG: clusterEnv().kubeconfig }, cwd, prefix: runner!.prefix }
  )
}

async function reportFile(result: ActionResult): Promise<{ text: string; report: Report }> {
  const text = await readFile(result.outputs['report-file']!, 'utf8')
  const report = JSON.parse(text) as Report
  expectValidReport(report)
  return { text, report }
}

describe('verify-traffic target guard, from an isolated runner', () => {
  it('never probes a metadata service address a Gateway announces, and says why', async () => {
    const ns = await announcing({ type: 'IPAddress', value: METADATA })
    const before = requestsTo(METADATA)
    const result = await gateInside(ns)
    expect(result.code, logOf(result) + result.stderr).toBe(1)
    const { report } = await reportFile(result)
    expect(report.routes[0]?.parents[0]?.probe).toEqual({
      state: 'not-probed',
      why: `not probed: ${METADATA} is a cloud metadata service address`
    })
    expect(result.summary).toContain('Traffic not probed: the Gateway address is refused')
    expect(result.summary).toContain(`${METADATA} is a cloud metadata service address`)
    expect(requestsTo(METADATA)).toBe(before)
  })

  it('never probes a link-local address or a metadata service name from status', async () => {
    const linkLocal = await announcing({ type: 'IPAddress', value: LINK_LOCAL })
    const named = await announcing({ type: 'Hostname', value: 'metadata.google.internal' })
    const before = requestsTo(LINK_LOCAL) + requestsTo(METADATA)
    const first = await gateInside(linkLocal)
    expect(first.code, logOf(first)).toBe(1)
    expect(first.summary).toContain(`${LINK_LOCAL} is a link-local address`)
    const second = await gateInside(named)
    expect(second.code, logOf(second)).toBe(1)
    expect(second.summary).toContain('metadata.google.internal is a cloud metadata service')
    expect(requestsTo(LINK_LOCAL) + requestsTo(METADATA)).toBe(before)
  })

  it('never probes a Hostname from status that resolves to a metadata or link-local address', async () => {
    // the names pass the name check; only the IP they resolve to inside the runner refuses them
    const toMetadata = await announcing({ type: 'Hostname', value: NAMED_METADATA })
    const toLinkLocal = await announcing({ type: 'Hostname', value: NAMED_LINK_LOCAL })
    const before = requestsTo(LINK_LOCAL) + requestsTo(METADATA)
    const first = await gateInside(toMetadata)
    expect(first.code, logOf(first) + first.stderr).toBe(1)
    expect(first.summary).toContain(
      `${NAMED_METADATA} resolves to ${METADATA}, which is a cloud metadata service address`
    )
    const second = await gateInside(toLinkLocal)
    expect(second.code, logOf(second) + second.stderr).toBe(1)
    expect(second.summary).toContain(
      `${NAMED_LINK_LOCAL} resolves to ${LINK_LOCAL}, which is a link-local address`
    )
    expect(requestsTo(LINK_LOCAL) + requestsTo(METADATA)).toBe(before)
    // the control: the owner's gateway-address by that name is looked up the same way and reached
    const chosen = await gateInside(toLinkLocal, { 'gateway-address': NAMED_LINK_LOCAL })
    expect(chosen.code, logOf(chosen) + chosen.stderr).toBe(0)
    expect(requestsTo(LINK_LOCAL)).toBeGreaterThan(before)
  })

  it('probes an address the workflow gives, and shows no body outside the report file', async () => {
    // the control: the same Route through the owner's own gateway-address reaches its server, so
    // the zero counts above are the guard's doing, not a harness that sees nothing
    const ns = await announcing({ type: 'IPAddress', value: METADATA })
    const before = { metadata: requestsTo(METADATA), chosen: requestsTo(LINK_LOCAL) }
    const result = await gateInside(ns, { 'gateway-address': LINK_LOCAL })
    expect(result.code, logOf(result) + result.stderr).toBe(0)
    expect(requestsTo(LINK_LOCAL)).toBeGreaterThan(before.chosen)
    expect(requestsTo(METADATA)).toBe(before.metadata)
    const { text, report } = await reportFile(result)
    expect(report.routes[0]?.parents[0]?.probe?.state).toBe('serving')
    for (const shown of [result.summary, result.stdout, result.outputs.report ?? '', text]) {
      expect(shown).not.toContain('AKIA-ROUTE-GATE-TEST')
    }
  })

  it('puts the body in the report file alone with traffic-show-body', async () => {
    const ns = await announcing({ type: 'IPAddress', value: OTHER })
    const result = await gateInside(ns, { 'traffic-show-body': 'true' })
    expect(result.code, logOf(result) + result.stderr).toBe(0)
    const { text, report } = await reportFile(result)
    expect(report.routes[0]?.parents[0]?.probe?.last?.excerpt).toBe(SECRET)
    expect(text).toContain('AKIA-ROUTE-GATE-TEST')
    for (const shown of [result.summary, result.stdout, result.outputs.report ?? '']) {
      expect(shown).not.toContain('AKIA-ROUTE-GATE-TEST')
    }
  })

  it('narrows status addresses to traffic-allowed-cidrs', async () => {
    const ns = await announcing({ type: 'IPAddress', value: OTHER })
    const before = requestsTo(OTHER)
    const outside = await gateInside(ns, { 'traffic-allowed-cidrs': '10.0.0.0/8' })
    expect(outside.code, logOf(outside)).toBe(1)
    expect(outside.summary).toContain(`${OTHER} is outside traffic-allowed-cidrs (10.0.0.0/8)`)
    expect(requestsTo(OTHER)).toBe(before)
    const inside = await gateInside(ns, { 'traffic-allowed-cidrs': '10.0.0.0/8, 198.51.100.0/24' })
    expect(inside.code, logOf(inside)).toBe(0)
    expect(requestsTo(OTHER)).toBeGreaterThan(before)
  })
})

// Verdict rules that only the real control plane can show: the apply order a controller sees, a Route
// held by a finalizer while Contour keeps calling it accepted, and ListenerSet parents read from the
// API server. The committed dist/index.js runs as GitHub's runner starts it.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { Watch, type KubernetesObject } from '@kubernetes/client-node'
import { describe, expect, it } from 'vitest'
import type { Report } from '../../src/model/types.ts'
import { runAction, type ActionResult } from '../helpers/action.ts'
import {
  applyYaml,
  clusterEnv,
  createService,
  getRoute,
  kube,
  parentCondition,
  testHostname,
  testNamespace,
  waitForRouteCondition,
  writeRouteStatus
} from '../helpers/cluster.ts'
import { expectValidReport } from '../helpers/schema.ts'

const HOLD = 'route-gate.test/hold'

function contourRoute(ns: string, backend: string, finalizer = false): string {
  const gw = clusterEnv().gateway
  return `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web${finalizer ? `\n  finalizers: [${HOLD}]` : ''}
spec:
  parentRefs:
  - {name: ${gw.name}, namespace: ${gw.namespace}, sectionName: http}
  hostnames: [${testHostname(ns, 'web')}]
  rules:
  - backendRefs:
    - {name: ${backend}, port: 8080}
`
}

function run(inputs: Record<string, string>, cwd?: string): Promise<ActionResult> {
  return runAction(inputs, { env: { KUBECONFIG: clusterEnv().kubeconfig }, cwd })
}

async function reportOf(result: ActionResult): Promise<Report> {
  const report = JSON.parse(await readFile(result.outputs['report-file']!, 'utf8')) as Report
  expectValidReport(report)
  return report
}

const routeCoordinates = (namespace: string) => ({
  group: 'gateway.networking.k8s.io',
  version: 'v1',
  plural: 'httproutes',
  namespace,
  name: 'web'
})

/** Deletes the Route; the test finalizer keeps it, with metadata.deletionTimestamp set. */
async function deleteHeld(namespace: string): Promise<void> {
  await kube().custom.deleteNamespacedCustomObject(routeCoordinates(namespace))
  await waitForRouteCondition('HTTPRoute', namespace, 'web', (r) =>
    Boolean(r.metadata.deletionTimestamp)
  )
}

/** Lets the API server finish the deletion, so the test leaves nothing held behind. */
async function release(namespace: string): Promise<void> {
  await kube().custom.patchNamespacedCustomObject(
    { ...routeCoordinates(namespace), body: [{ op: 'remove', path: '/metadata/finalizers' }] },
    undefined
  )
}

/**
 * The etcd revision at which each object of the namespace was created, from ADDED watch events (one
 * etcd orders every write, so revisions of different resources compare): the order they were applied.
 */
async function watchCreations(
  namespace: string
): Promise<{ revisions: Map<string, number>; stop: () => void }> {
  const revisions = new Map<string, number>()
  const collections = [
    `/api/v1/namespaces/${namespace}/services`,
    `/api/v1/namespaces/${namespace}/configmaps`,
    `/apis/gateway.networking.k8s.io/v1/namespaces/${namespace}/httproutes`
  ]
  const watches = await Promise.all(
    collections.map((collection) =>
      new Watch(kube().config).watch(
        collection,
        {},
        (phase: string, object: KubernetesObject) => {
          const key = `${object.kind}/${object.metadata?.name}`
          if (phase === 'ADDED' && !revisions.has(key)) {
            revisions.set(key, Number(object.metadata?.resourceVersion))
          }
        },
        () => {}
      )
    )
  )
  return { revisions, stop: () => watches.forEach((w) => w.abort()) }
}

const accepted = (r: Awaited<ReturnType<typeof getRoute>>): boolean =>
  parentCondition(r, clusterEnv().gateway.name, 'Accepted')?.status === 'True' &&
  parentCondition(r, clusterEnv().gateway.name, 'ResolvedRefs')?.status === 'True'

describe('verdict rules on the real control plane', () => {
  it('applies in dependency order: the Route file sorts first, fail-fast, correct manifests pass', async () => {
    const ns = await testNamespace('order')
    const dir = await mkdtemp(path.join(os.tmpdir(), 'route-gate-order-'))
    const configMaps = Array.from(
      { length: 20 },
      (_, i) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings-${i}\ndata: {a: b}\n`
    )
    const files: Record<string, string> = {
      'a-route.yaml': contourRoute(ns, 'web'),
      'b-config.yaml': configMaps.join('---\n'),
      'c-service.yaml': `apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports: [{name: http, port: 8080}]\n`
    }
    for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text)
    const created = await watchCreations(ns)
    const result = await run(
      { manifests: '.', namespace: ns, 'fail-fast': 'true', timeout: '60s' },
      dir
    ).finally(created.stop)
    expect(result.code, result.stdout).toBe(0)
    expect(result.outputs.verdict).toBe('ready')
    expect(result.stdout).not.toContain('BackendNotFound')
    const { revisions } = created
    const route = revisions.get('HTTPRoute/web')!
    expect(revisions.size).toBe(22)
    expect(revisions.get('Service/web')).toBeLessThan(route)
    for (let i = 0; i < 20; i++)
      expect(revisions.get(`ConfigMap/settings-${i}`)).toBeLessThan(route)
  })

  it('a Route held by a finalizer is failed Terminating although Contour accepts it', async () => {
    const ns = await testNamespace('held')
    await createService(ns, 'web', [{ port: 8080, name: 'http' }])
    await applyYaml(contourRoute(ns, 'web', true), ns)
    await waitForRouteCondition('HTTPRoute', ns, 'web', accepted)
    await deleteHeld(ns)
    try {
      const result = await run({
        routes: `httproute/${ns}/web`,
        'fail-fast': 'true',
        timeout: '30s'
      })
      expect(result.code, result.stdout).toBe(1)
      expect(result.outputs.verdict).toBe('failed')
      const report = await reportOf(result)
      const route = report.routes[0]!
      expect(route.parents[0]!.verdict).toBe('ready')
      const problem = route.problems?.find((p) => p.reason === 'Terminating')
      expect(problem?.title).toBe(`HTTPRoute ${ns}/web is being deleted`)
      expect(problem?.evidence).toContain(`Finalizers still hold it: ${HOLD}.`)
      expect(result.summary).toContain('Terminating')
    } finally {
      await release(ns)
    }
  })

  it('a Route deleted while the gate waits does not pass when Contour then accepts it', async () => {
    const ns = await testNamespace('deleted')
    await applyYaml(contourRoute(ns, 'late', true), ns)
    const running = run({ routes: `httproute/${ns}/web`, timeout: '12s' })
    try {
      await waitForRouteCondition('HTTPRoute', ns, 'web', (r) =>
        JSON.stringify(r.status ?? {}).includes('BackendNotFound')
      )
      await deleteHeld(ns)
      await createService(ns, 'late', [{ port: 8080, name: 'http' }])
      // what the gate would have taken for ready: Contour's fresh Accepted and ResolvedRefs True
      const held = await waitForRouteCondition('HTTPRoute', ns, 'web', accepted)
      expect(held.metadata.deletionTimestamp).toBeDefined()
      const result = await running
      expect(result.code, result.stdout).toBe(1)
      const report = await reportOf(result)
      expect(report.routes[0]?.problems?.map((p) => p.reason)).toEqual(['Terminating'])
    } finally {
      await running
      await release(ns)
    }
  })

  it("judges a ListenerSet parent by its parent Gateway's controller, read from the API server", async () => {
    const ns = await testNamespace('listenerset')
    const other = clusterEnv().otherGateway
    await applyYaml(
      `apiVersion: gateway.networking.k8s.io/v1
kind: ListenerSet
metadata:
  name: team
spec:
  parentRef: {name: ${other.name}, namespace: ${other.namespace}}
  listeners:
  - {name: team-http, port: 8081, protocol: HTTP}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
spec:
  parentRefs:
  - {kind: ListenerSet, name: team, sectionName: team-http}
  rules:
  - backendRefs:
    - {name: web, port: 8080}
`,
      ns
    )
    const { metadata } = await getRoute('HTTPRoute', ns, 'web')
    const parentRef = {
      group: 'gateway.networking.k8s.io',
      kind: 'ListenerSet',
      namespace: ns,
      name: 'team',
      sectionName: 'team-http'
    }
    const condition = (type: string, status: 'True' | 'False', reason: string) => ({
      type,
      status,
      reason,
      observedGeneration: metadata.generation
    })
    await writeRouteStatus(
      'HTTPRoute',
      ns,
      'web',
      {
        parents: [
          {
            parentRef,
            controllerName: 'example.com/retired',
            conditions: [condition('Accepted', 'False', 'NotAllowedByListeners')]
          },
          {
            parentRef,
            controllerName: 'example.com/other',
            conditions: [
              condition('Accepted', 'True', 'Accepted'),
              condition('ResolvedRefs', 'True', 'ResolvedRefs')
            ]
          }
        ]
      },
      { controllerName: 'example.com/other' }
    )
    const result = await run({ routes: `httproute/${ns}/web`, timeout: '20s' })
    expect(result.code, result.stdout).toBe(0)
    const parent = (await reportOf(result)).routes[0]!.parents[0]!
    expect(parent).toMatchObject({ verdict: 'ready', controllerName: 'example.com/other' })
  })
})

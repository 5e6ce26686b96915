// Proves the harness itself: Contour writes real Route status against the real apiserver, and the
// status helper writes shapes Contour never produces through the real status subresource.
import { describe, expect, it } from 'vitest'
import {
  applyYaml,
  clusterEnv,
  createService,
  gatewayParentRef,
  getRoute,
  parentCondition,
  testHostname,
  testNamespace,
  waitForRouteCondition,
  writeRouteStatus
} from '../helpers/cluster.ts'
import type { RouteRead } from '../helpers/cluster.ts'

function httpRoute(name: string, backend: string, hostname: string, sectionName = 'http'): string {
  const { namespace, name: gateway } = clusterEnv().gateway
  return `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: ${name}
spec:
  parentRefs:
    - name: ${gateway}
      namespace: ${namespace}
      sectionName: ${sectionName}
  hostnames: [${hostname}]
  rules:
    - backendRefs:
        - name: ${backend}
          port: 8080
`
}

const isFresh =
  (type: string, status: string) =>
  (route: RouteRead): boolean => {
    const condition = parentCondition(route, clusterEnv().gateway.name, type)
    return (
      condition?.status === status && condition.observedGeneration === route.metadata.generation
    )
  }

describe('test cluster harness', () => {
  it('Contour accepts an HTTPRoute whose backend Service exists', async () => {
    const ns = await testNamespace('harness')
    await createService(ns, 'web', [8080])
    await applyYaml(httpRoute('web', 'web', testHostname(ns)), ns)

    const route = await waitForRouteCondition('HTTPRoute', ns, 'web', (r) =>
      [isFresh('Accepted', 'True'), isFresh('ResolvedRefs', 'True')].every((p) => p(r))
    )

    const entry = route.status?.parents.find((p) => p.parentRef.name === clusterEnv().gateway.name)
    expect(entry?.controllerName).toBe('projectcontour.io/gateway-controller')
    expect(parentCondition(route, 'contour', 'Accepted')?.reason).toBe('Accepted')
    expect(parentCondition(route, 'contour', 'ResolvedRefs')?.reason).toBe('ResolvedRefs')
  })

  it('Contour reports ResolvedRefs=False/BackendNotFound for a missing Service', async () => {
    const ns = await testNamespace('harness')
    await applyYaml(httpRoute('broken', 'missing', testHostname(ns)), ns)

    const route = await waitForRouteCondition(
      'HTTPRoute',
      ns,
      'broken',
      isFresh('ResolvedRefs', 'False')
    )

    expect(parentCondition(route, 'contour', 'ResolvedRefs')?.reason).toBe('BackendNotFound')
  })

  it('Contour accepts TCPRoute and TLSRoute on their listeners', async () => {
    const ns = await testNamespace('harness')
    const { namespace, name: gateway } = clusterEnv().gateway
    await createService(ns, 'db', [5432])
    await applyYaml(
      `
apiVersion: gateway.networking.k8s.io/v1
kind: TCPRoute
metadata:
  name: db
spec:
  parentRefs: [{ name: ${gateway}, namespace: ${namespace}, sectionName: tcp }]
  rules:
    - backendRefs: [{ name: db, port: 5432 }]
---
apiVersion: gateway.networking.k8s.io/v1
kind: TLSRoute
metadata:
  name: db-tls
spec:
  parentRefs: [{ name: ${gateway}, namespace: ${namespace}, sectionName: tls }]
  hostnames: [${testHostname(ns, 'db')}]
  rules:
    - backendRefs: [{ name: db, port: 5432 }]
`,
      ns
    )

    for (const [kind, name] of [
      ['TCPRoute', 'db'],
      ['TLSRoute', 'db-tls']
    ] as const) {
      const route = await waitForRouteCondition(kind, ns, name, isFresh('Accepted', 'True'))
      expect(parentCondition(route, gateway, 'ResolvedRefs')?.status).toBe('True')
    }
  })

  it('the same-ns listener refuses Routes from other namespaces (NotAllowedByListeners)', async () => {
    const ns = await testNamespace('harness')
    await createService(ns, 'web', [8080])
    await applyYaml(httpRoute('outsider', 'web', 'same.example.com', 'same-ns'), ns)

    const route = await waitForRouteCondition(
      'HTTPRoute',
      ns,
      'outsider',
      isFresh('Accepted', 'False')
    )

    expect(parentCondition(route, 'contour', 'Accepted')?.reason).toBe('NotAllowedByListeners')
  })

  it('writeRouteStatus round-trips a comma-joined reason without bumping generation', async () => {
    const ns = await testNamespace('harness')
    const { otherGateway } = clusterEnv()
    await createService(ns, 'dns', [{ port: 53, protocol: 'UDP' }])
    await applyYaml(
      `
apiVersion: gateway.networking.k8s.io/v1
kind: UDPRoute
metadata:
  name: dns
spec:
  parentRefs: [${JSON.stringify(gatewayParentRef('other', 'udp'))}]
  rules:
    - backendRefs: [{ name: dns, port: 53 }]
`,
      ns
    )
    const before = await getRoute('UDPRoute', ns, 'dns')

    await writeRouteStatus(
      'UDPRoute',
      ns,
      'dns',
      {
        parents: [
          {
            parentRef: gatewayParentRef('other', 'udp'),
            conditions: [
              { type: 'Accepted', status: 'True', reason: 'Accepted', observedGeneration: 1 },
              {
                type: 'ResolvedRefs',
                status: 'False',
                reason: 'InvalidBackendFilters,UnsupportedValue',
                observedGeneration: 1
              }
            ]
          }
        ]
      },
      { controllerName: otherGateway.controllerName }
    )

    const after = await getRoute('UDPRoute', ns, 'dns')
    expect(after.metadata.generation).toBe(before.metadata.generation)
    expect(after.status?.parents).toHaveLength(1)
    expect(after.status?.parents[0]?.controllerName).toBe('example.com/other')
    expect(parentCondition(after, otherGateway.name, 'ResolvedRefs')).toMatchObject({
      status: 'False',
      reason: 'InvalidBackendFilters,UnsupportedValue',
      observedGeneration: 1
    })
  })

  it('a spec change bumps generation and Contour catches up with it', async () => {
    const ns = await testNamespace('harness')
    await createService(ns, 'web', [8080])
    await applyYaml(httpRoute('gen', 'web', testHostname(ns)), ns)
    const first = await getRoute('HTTPRoute', ns, 'gen')

    await applyYaml(httpRoute('gen', 'web', testHostname(ns, 'changed')), ns)

    const second = await getRoute('HTTPRoute', ns, 'gen')
    expect(second.metadata.generation).toBe(first.metadata.generation + 1)
    const reconciled = await waitForRouteCondition(
      'HTTPRoute',
      ns,
      'gen',
      isFresh('Accepted', 'True')
    )
    expect(reconciled.metadata.generation).toBe(second.metadata.generation)
  })
})

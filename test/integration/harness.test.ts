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
  testNamespace,
  waitForRouteCondition,
  writeRouteStatus
} from '../helpers/cluster.ts'
import type { RouteRead } from '../helpers/cluster.ts'

function httpRoute(name: string, backend: string): string {
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
  hostnames: [shop.example.com]
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
    await applyYaml(httpRoute('web', 'web'), ns)

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
    await applyYaml(httpRoute('broken', 'missing'), ns)

    const route = await waitForRouteCondition(
      'HTTPRoute',
      ns,
      'broken',
      isFresh('ResolvedRefs', 'False')
    )

    expect(parentCondition(route, 'contour', 'ResolvedRefs')?.reason).toBe('BackendNotFound')
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
    await applyYaml(httpRoute('gen', 'web'), ns)
    const first = await getRoute('HTTPRoute', ns, 'gen')

    await applyYaml(httpRoute('gen', 'web').replace('shop.example.com', 'shop2.example.com'), ns)

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

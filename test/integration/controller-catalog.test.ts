// route-gate's controller catalog against what the controllers really write: for the reasons only
// some controllers write (beyond those of the scenarios in gate-action.test.ts), the remediation the
// report gives, and the warning for a ready parent whose backends have no endpoints.
import { describe, expect, it } from 'vitest'
import type { Problem } from '../../src/model/types.ts'
import { gate, logOf, reportOf } from '../helpers/gate.ts'
import {
  applyYaml,
  controller,
  createService,
  gatewayParentRef,
  testHostname,
  testNamespace,
  waitForRouteCondition
} from '../helpers/cluster.ts'
import type { ControllerId } from '../helpers/cluster.ts'

async function routeTo(id: ControllerId, ns: string, port = 8080): Promise<void> {
  await applyYaml(
    `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: web}
spec:
  parentRefs: [${JSON.stringify(gatewayParentRef(id, 'http'))}]
  hostnames: [${testHostname(ns)}]
  rules: [{backendRefs: [{name: web, port: ${port}}]}]
`,
    ns
  )
}

/** The Route's one parent: its verdict, the controller that decided and the problems. */
async function gateOne(ns: string, timeout: string) {
  const result = await gate({ routes: `httproute/${ns}/web`, timeout })
  const report = await reportOf(result)
  const parent = report.routes[0]!.parents[0]!
  return { result, parent }
}

const notInCatalog = /not in route-gate's catalog/

function expectExplained(problem: Problem | undefined, remediation: RegExp): void {
  expect(problem?.remediation).toMatch(remediation)
  expect(problem?.evidence?.join('\n') ?? '').not.toMatch(notInCatalog)
}

describe('a Service without EndpointSlices (no controller-manager creates them)', () => {
  it('envoy-gateway: ready, with a BackendsAvailable=False/EndpointsNotFound warning that requests get 503', async () => {
    const ns = await testNamespace('cat-eg-noep')
    await createService(ns, 'web', [{ port: 8080, name: 'http' }])
    await routeTo('envoy-gateway', ns)
    const { result, parent } = await gateOne(ns, '60s')

    expect(result.code, logOf(result)).toBe(0)
    expect(parent.verdict).toBe('ready')
    const warning = parent.problems.find((p) => p.reason === 'EndpointsNotFound')
    expect(warning).toMatchObject({ severity: 'warning', condition: 'BackendsAvailable' })
    expect(warning?.title).toMatch(/503/)
    expectExplained(warning, /readiness of the backing Pods/)
    expect(result.summary).toContain('EndpointsNotFound')
  })

  it('traefik: ResolvedRefs=False/BackendNotFound "endpointslices not found", told to check the selector and Pods', async () => {
    const ns = await testNamespace('cat-tr-noep')
    await createService(ns, 'web', [{ port: 8080, name: 'http' }])
    await routeTo('traefik', ns)
    const { result, parent } = await gateOne(ns, '6s')

    expect(result.code).toBe(1)
    expect(parent.controllerName).toBe(controller('traefik').controllerName)
    const problem = parent.problems.find((p) => p.reason === 'BackendNotFound')
    expect(problem?.message).toMatch(/endpointslices not found/)
    expectExplained(problem, /check the Service selector and that its Pods are running and ready/i)
  })

  it('contour: ready without a warning (its ResolvedRefs only needs the Service and port)', async () => {
    const ns = await testNamespace('cat-ct-noep')
    await createService(ns, 'web', [{ port: 8080, name: 'http' }])
    await routeTo('contour', ns)
    const { result, parent } = await gateOne(ns, '60s')

    expect(result.code, logOf(result)).toBe(0)
    expect(parent.problems).toEqual([])
  })
})

describe('a backendRef port the Service does not have', () => {
  it.each<[ControllerId, string, RegExp]>([
    ['contour', 'BackendNotFound', /port/i],
    ['envoy-gateway', 'PortNotFound', /Use a port the Service has/],
    ['traefik', 'BackendNotFound', /port/i]
  ])('%s writes %s and route-gate explains it', async (id, reason, remediation) => {
    const ns = await testNamespace('cat-port')
    await createService(ns, 'web', [{ port: 8080, name: 'http' }], { endpoints: true })
    await routeTo(id, ns, 9999)
    await waitForRouteCondition('HTTPRoute', ns, 'web', (r) =>
      (r.status?.parents ?? []).some((p) => p.controllerName === controller(id).controllerName)
    )
    const { result, parent } = await gateOne(ns, '6s')

    expect(result.code).toBe(1)
    expect(parent.controllerName).toBe(controller(id).controllerName)
    const problem = parent.problems.find((p) => p.reason === reason)
    expect(problem, JSON.stringify(parent.problems)).toBeDefined()
    expectExplained(problem, remediation)
  })
})

describe('a backendRef to a UDP port of the Service', () => {
  it('traefik writes UnsupportedProtocol ("only TCP protocol is supported"); route-gate says to use a TCP port', async () => {
    const ns = await testNamespace('cat-tr-udp')
    await createService(ns, 'web', [{ port: 8080, name: 'dns', protocol: 'UDP' }], {
      endpoints: true
    })
    await routeTo('traefik', ns)
    const { result, parent } = await gateOne(ns, '6s')

    expect(result.code).toBe(1)
    const problem = parent.problems.find((p) => p.reason === 'UnsupportedProtocol')
    expect(problem?.message).toMatch(/only TCP protocol is supported/)
    expectExplained(problem, /TCP port of the Service/)
  })
})

import { describe, expect, it } from 'vitest'
import { CONTROLLER_DOCS, controllerReason } from '../../../src/diagnose/controller-docs.ts'
import { CONTROLLERS, findController, writesReason } from '../../../src/rules/controllers.ts'
import { controllerLabel } from '../../../src/wording/controllers.ts'
import { explainRoute } from '../../../src/diagnose/explain.ts'
import { CONTROLLER_CASES, findingFrom } from '../../fixtures/diagnose/controllers.ts'
import {
  MODES,
  baseWorld,
  ref,
  route,
  routeVerdict,
  severityIn
} from '../../fixtures/diagnose/world.ts'

describe('controller catalog', () => {
  it('matches exact names and families by prefix', () => {
    expect(findController('gateway.envoyproxy.io/gatewayclass-controller')?.name).toBe(
      'Envoy Gateway'
    )
    expect(findController('networking.gke.io/gateway-multicluster')?.name).toBe(
      'GKE Gateway controller'
    )
    expect(findController('istio.io/mesh-controller')?.name).toBe('Istio')
    expect(findController('agentgateway.dev/agentgateway')?.name).toBe('kgateway')
    expect(findController('example.com/unknown')).toBeUndefined()
    expect(findController(null)).toBeUndefined()
  })

  it('prefers a condition-specific entry over the reason alone', () => {
    const eg = findController('gateway.envoyproxy.io/gatewayclass-controller')
    expect(controllerReason(eg, 'ResolvedRefs', 'UnsupportedValue')?.fix).toMatch(/ExternalName/)
    expect(controllerReason(eg, 'Accepted', 'UnsupportedValue')).toBeUndefined()
  })

  it('the facts and the docs name the same controllers and the same reasons', () => {
    expect(Object.keys(CONTROLLER_DOCS).sort()).toEqual(CONTROLLERS.map((c) => c.name).sort())
    for (const controller of CONTROLLERS) {
      const docs = CONTROLLER_DOCS[controller.name]
      expect(Object.keys(docs?.reasons ?? {}).sort(), controller.name).toEqual(
        [...controller.writes].sort()
      )
      expect(docs?.docs, controller.name).toMatch(/^https:\/\//)
    }
  })

  it('knows which reasons a controller writes, on a condition or on any', () => {
    const contour = findController('projectcontour.io/gateway-controller')
    expect(writesReason(contour, undefined, 'RuleMatchConflict')).toBe(true)
    expect(writesReason(contour, 'Accepted', 'RuleMatchConflict')).toBe(true)
    const traefik = findController('traefik.io/gateway-controller')
    expect(writesReason(traefik, 'ResolvedRefs', 'UnsupportedProtocol')).toBe(true)
    expect(writesReason(traefik, 'Accepted', 'UnsupportedProtocol')).toBe(false)
    expect(writesReason(undefined, undefined, 'RuleMatchConflict')).toBe(false)
  })

  it('labels a known controller with its product name and an unknown one by its controllerName', () => {
    expect(controllerLabel('projectcontour.io/gateway-controller')).toBe(
      'Contour (projectcontour.io/gateway-controller)'
    )
    expect(controllerLabel('example.com/gw')).toBe('example.com/gw')
  })
})

describe.each(MODES)('real status shapes of each controller (%s mode)', (mode) => {
  it.each(CONTROLLER_CASES)('$controller: $condition.reason gets its meaning and fix', (c) => {
    const world = baseWorld(c.className, c.controllerName)
    const r = route({
      parentRefs: [{ name: c.controller === 'Cilium' ? 'webb' : 'web', namespace: 'infra' }],
      rules: [{ backendRefs: [{ name: 'cart', port: 80 }] }]
    })
    const parentRef = ref(c.controller === 'Cilium' ? 'webb' : 'web')
    const verdict = routeVerdict(r, [
      {
        parentRef,
        controllerName: c.controllerName,
        conditions: [c.condition],
        finding: findingFrom(c.condition, c.controllerName, severityIn(mode))
      }
    ])
    const [problem] = explainRoute(verdict, world).parents[0]?.problems ?? []
    expect(problem?.reason).toBe(c.condition.reason)
    expect(problem?.standard).toBe(c.standard)
    expect(problem?.severity).toBe(severityIn(mode))
    expect(problem?.message).toBe(c.condition.message)
    expect(`${problem?.title} ${problem?.remediation}`).toMatch(c.expect)
    expect(problem?.title).not.toMatch(/\n/)
  })
})

describe.each(MODES)('a reason nobody knows (%s mode)', (mode) => {
  it('is reported with standard: false, the message verbatim and a fix naming the controller', () => {
    const message = 'upstream cluster\nwarming failed'
    const verdict = routeVerdict(route({ parentRefs: [{ name: 'web', namespace: 'infra' }] }), [
      {
        parentRef: ref('web'),
        controllerName: 'example.com/edge-controller',
        finding: {
          condition: 'Accepted',
          reason: 'WarmingFailed',
          severity: severityIn(mode),
          message,
          controllerName: 'example.com/edge-controller'
        }
      }
    ])
    const [problem] =
      explainRoute(verdict, baseWorld('edge', 'example.com/edge-controller')).parents[0]
        ?.problems ?? []
    expect(problem).toMatchObject({ reason: 'WarmingFailed', standard: false, message })
    expect(problem?.remediation).toContain('example.com/edge-controller')
    expect(problem?.remediation).toContain('kubectl describe httproute -n shop storefront')
    expect(problem?.evidence?.[0]).toContain('not a Gateway API reason')
  })

  it('names a known controller and links its docs when only the reason is new', () => {
    const verdict = routeVerdict(route({}), [
      {
        parentRef: ref('web'),
        controllerName: 'traefik.io/gateway-controller',
        finding: {
          condition: 'ResolvedRefs',
          reason: 'SomethingNew',
          severity: severityIn(mode),
          controllerName: 'traefik.io/gateway-controller'
        }
      }
    ])
    const [problem] =
      explainRoute(verdict, baseWorld('traefik', 'traefik.io/gateway-controller')).parents[0]
        ?.problems ?? []
    expect(problem?.remediation).toContain('Traefik (traefik.io/gateway-controller)')
    expect(problem?.remediation).toContain('https://doc.traefik.io/')
  })
})

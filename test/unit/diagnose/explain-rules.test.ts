// Rules of explainRoute: which parents carry a path line, how the parent's health joins a problem's
// evidence or becomes a ParentUnhealthy warning, and what a reason nobody catalogued is told with.
import { describe, expect, it } from 'vitest'
import { explainRoute } from '../../../src/diagnose/explain.ts'
import { reasonEntry } from '../../../src/diagnose/reasons.ts'
import type { Finding, World } from '../../../src/model/types.ts'
import {
  WEB_LISTENERS,
  baseWorld,
  grantFrom,
  gateway,
  ref,
  referenceGrant,
  route,
  routeVerdict
} from '../../fixtures/diagnose/world.ts'
import type { KubeObject } from '../../../src/model/types.ts'

const CONTOUR = 'projectcontour.io/gateway-controller'
const EG = 'gateway.envoyproxy.io/gatewayclass-controller'
const toCart = route({ rules: [{ backendRefs: [{ name: 'cart', port: 8080, weight: 0 }] }] })
const zeroWeights: Finding = {
  condition: 'ResolvedRefs',
  reason: 'AllBackendRefsHaveZeroWeights',
  severity: 'error'
}
const NOT_PROGRAMMED = {
  conditions: [
    {
      type: 'Programmed',
      status: 'False',
      reason: 'AddressNotAssigned',
      message: 'No addresses have been assigned to the Gateway'
    }
  ]
}
const notProgrammed = (name: string) =>
  `Gateway infra/${name} is not Programmed: Programmed=False (AddressNotAssigned): No addresses have been assigned to the Gateway.`

function contourWorld(unhealthy: string[] = []): World {
  const world = baseWorld('contour', CONTOUR)
  world.gateways = world.gateways.map((g) =>
    unhealthy.includes(g.metadata.name)
      ? gateway('infra', g.metadata.name, 'contour', WEB_LISTENERS, NOT_PROGRAMMED)
      : g
  )
  return world
}

describe('explainRoute', () => {
  it('draws the path only for parents that are not ready, and lists no orphans when there are none', () => {
    const verdict = routeVerdict(toCart, [
      { parentRef: ref('web'), controllerName: CONTOUR, finding: zeroWeights },
      { parentRef: ref('internal'), controllerName: CONTOUR }
    ])
    const result = explainRoute(verdict, contourWorld())
    expect(result.parents[0]?.chain?.at(-1)).toEqual({
      label: 'Service shop/cart:8080',
      state: 'broken'
    })
    expect(result.parents[1]).not.toHaveProperty('chain')
    expect(result).not.toHaveProperty('orphans')
    expect(result).not.toHaveProperty('problems')
  })

  it("gives a controller's own reason its catalog meaning and fix, and no empty evidence", () => {
    const verdict = routeVerdict(toCart, [
      { parentRef: ref('web'), controllerName: CONTOUR, finding: zeroWeights }
    ])
    const problem = explainRoute(verdict, contourWorld()).parents[0]?.problems[0]
    expect(problem).toEqual({
      condition: 'ResolvedRefs',
      reason: 'AllBackendRefsHaveZeroWeights',
      standard: false,
      severity: 'error',
      title: 'AllBackendRefsHaveZeroWeights: every backendRef has weight 0; Contour answers 503',
      remediation: 'Give at least one backendRef a weight above 0.'
    })
  })

  it("adds the Gateway's health to the first problem as its evidence", () => {
    const verdict = routeVerdict(toCart, [
      { parentRef: ref('web'), controllerName: CONTOUR, finding: zeroWeights }
    ])
    const problem = explainRoute(verdict, contourWorld(['web'])).parents[0]?.problems[0]
    expect(problem?.evidence).toEqual([notProgrammed('web')])
  })

  it('warns about an unhealthy Gateway of a parent that is ready', () => {
    const verdict = routeVerdict(toCart, [{ parentRef: ref('internal'), controllerName: CONTOUR }])
    const parent = explainRoute(verdict, contourWorld(['internal'])).parents[0]
    expect(parent?.verdict).toBe('ready')
    expect(parent?.problems).toEqual([
      {
        reason: 'ParentUnhealthy',
        severity: 'warning',
        title: 'Gateway infra/internal is not healthy although the Route is accepted',
        remediation: reasonEntry('ParentUnhealthy')?.remediation,
        evidence: [notProgrammed('internal')]
      }
    ])
    expect(parent?.problems[0]?.remediation).toContain('Fix the Gateway')
  })

  it("follows the evidence-based fix with the controller's own fix for a reason like a standard one", () => {
    const verdict = routeVerdict(
      route({ rules: [{ backendRefs: [{ name: 'carts', port: 8080 }] }] }),
      [
        {
          parentRef: ref('web'),
          controllerName: CONTOUR,
          finding: {
            condition: 'ResolvedRefs',
            reason: 'Degraded',
            severity: 'error',
            message: 'service "carts" is invalid: service "shop/carts" not found'
          }
        }
      ]
    )
    const problem = explainRoute(verdict, contourWorld()).parents[0]?.problems[0]
    expect(problem?.title).toBe('rule 0 backendRef 0: Service shop/carts does not exist')
    expect(problem?.remediation).toBe(
      'Point rule 0 backendRef 0 at "cart" (the nearest existing Service in shop with port 8080) or create Service shop/carts. Add the backendRefs or port; fix duplicate or invalid header filters.'
    )
  })

  it('says that a reason is in no catalog, names the controller of the parent, and points at its docs', () => {
    const verdict = routeVerdict(toCart, [
      {
        parentRef: ref('web'),
        controllerName: EG,
        finding: { condition: 'ResolvedRefs', reason: 'BackendTLSPolicyInvalid', severity: 'error' }
      }
    ])
    const problem = explainRoute(verdict, baseWorld('eg', EG)).parents[0]?.problems[0]
    expect(problem?.condition).toBe('ResolvedRefs')
    expect(problem?.title).toBe(`ResolvedRefs reports BackendTLSPolicyInvalid from ${EG}`)
    expect(problem?.evidence).toEqual([
      `Envoy Gateway (${EG}) reported reason BackendTLSPolicyInvalid on ResolvedRefs, which is not a Gateway API reason and not in route-gate's catalog for this controller.`
    ])
    expect(problem?.remediation).toMatch(
      new RegExp(
        `^Envoy Gateway \\(${EG}\\) uses its own reason BackendTLSPolicyInvalid: read its message and its documentation \\(https://[^)]+\\)\\. The Route's events \\(kubectl describe httproute -n shop storefront\\) and the controller's logs say more\\.$`
      )
    )
  })

  it('tells an uncatalogued reason of an unknown controller without documentation', () => {
    const other = 'example.com/gateway-controller'
    const verdict = routeVerdict(toCart, [
      {
        parentRef: ref('web'),
        controllerName: other,
        finding: { condition: 'Accepted', reason: 'QuotaExceeded', severity: 'error' }
      }
    ])
    const problem = explainRoute(verdict, baseWorld('example', other)).parents[0]?.problems[0]
    expect(problem?.title).toBe(`Accepted reports QuotaExceeded from ${other}`)
    expect(problem?.remediation).toBe(
      `${other} uses its own reason QuotaExceeded: read its message. The Route's events (kubectl describe httproute -n shop storefront) and the controller's logs say more.`
    )
  })

  it('titles a disagreement with the whole first fact, dotted group names included', () => {
    const world = baseWorld()
    world.referenceGrants.push(
      referenceGrant(
        'payments',
        'allow-pool',
        [grantFrom()],
        [{ group: 'inference.networking.k8s.io', kind: 'InferencePool', name: 'pool' }]
      )
    )
    const toPool = route({
      rules: [
        {
          backendRefs: [
            {
              group: 'inference.networking.k8s.io',
              kind: 'InferencePool',
              name: 'pool',
              namespace: 'payments'
            }
          ]
        }
      ]
    })
    const verdict = routeVerdict(toPool, [
      {
        parentRef: ref('web'),
        finding: { condition: 'ResolvedRefs', reason: 'RefNotPermitted', severity: 'error' }
      }
    ])
    expect(explainRoute(verdict, world).parents[0]?.problems[0]?.title).toBe(
      'RefNotPermitted disagrees with what route-gate read: ReferenceGrant payments/allow-pool permits HTTPRoute in shop to reference InferencePool.inference.networking.k8s.io payments/pool (rule 0 backendRef 0)'
    )
  })

  it('keeps the problem, with the catalog advice, when an object of a hand-written dump breaks a gatherer', () => {
    const nameless = {
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'Gateway'
    } as unknown as KubeObject
    const verdict = routeVerdict(route({}), [], {
      verdict: 'failed',
      findings: [{ reason: 'NoParentRefs', severity: 'error' }]
    })
    const problem = explainRoute(verdict, { ...baseWorld(), gateways: [nameless] }).problems?.[0]
    expect(problem).toMatchObject({
      reason: 'NoParentRefs',
      severity: 'error',
      title: reasonEntry('NoParentRefs')?.title,
      remediation: reasonEntry('NoParentRefs')?.remediation
    })
    expect(problem?.evidence).toEqual([
      expect.stringMatching(/^Evidence could not be gathered: .*namespace.*\.$/)
    ])
  })
})

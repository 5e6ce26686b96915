// A controller's reason that route-gate's own reads contradict: the report says they disagree and
// never advises the fix that is already in place; fail-fast does not count it as definite.
import { describe, expect, it } from 'vitest'
import { definitelyFailed } from '../../../src/diagnose/contradictions.ts'
import { explainRoute } from '../../../src/diagnose/explain.ts'
import type { Finding, RouteObject, World } from '../../../src/model/types.ts'
import {
  MODES,
  baseWorld,
  ref,
  route,
  routeVerdict,
  severityIn,
  verdictIn
} from '../../fixtures/diagnose/world.ts'
import type { Mode } from '../../fixtures/diagnose/world.ts'
import { fixText } from '../../helpers/fixes.ts'

const finding = (condition: string, reason: string, mode: Mode, message?: string): Finding => ({
  condition,
  reason,
  severity: severityIn(mode),
  controllerName: 'istio.io/gateway-controller',
  ...(message ? { message } : {})
})

const toCart = route({ rules: [{ backendRefs: [{ name: 'cart', port: 8080 }] }] })
const toPayments = route(
  { rules: [{ backendRefs: [{ name: 'payments', namespace: 'payments', port: 9000 }] }] },
  'GRPCRoute'
)

function explained(r: RouteObject, f: Finding, mode: Mode, parent = 'web', world = baseWorld()) {
  const verdict = routeVerdict(r, [
    { parentRef: ref(parent), finding: f, verdict: verdictIn(mode) }
  ])
  return { verdict, problem: explainRoute(verdict, world).parents[0]?.problems[0] }
}

describe.each(MODES)('reason against evidence (%s mode)', (mode) => {
  it('BackendNotFound while the Service exists with the port: they disagree, no "create the Service"', () => {
    const { problem } = explained(
      toCart,
      finding('ResolvedRefs', 'BackendNotFound', mode, 'service "cart" not found'),
      mode
    )
    expect(problem?.title).toBe(
      'BackendNotFound disagrees with what route-gate read: Service shop/cart exists with port 8080 (rule 0 backendRef 0)'
    )
    expect(problem?.remediation).toContain("The controller's reason and the cluster disagree.")
    expect(problem?.remediation).toContain('may read Services')
    expect(problem?.remediation).not.toMatch(/create/i)
    expect(problem?.evidence).toContain(
      'Service shop/cart exists with port 8080 (rule 0 backendRef 0).'
    )
  })

  it('BackendNotFound for a missing port or Service stays a definite failure with its fix', () => {
    const wrongPort = route({ rules: [{ backendRefs: [{ name: 'cart', port: 80 }] }] })
    const { problem } = explained(wrongPort, finding('ResolvedRefs', 'BackendNotFound', mode), mode)
    expect(problem?.title).not.toContain('disagrees')
    expect(problem?.remediation).toBe('Set port on rule 0 backendRef 0 to 8080.')
  })

  it('RefNotPermitted while a matching ReferenceGrant exists: they disagree, no grant to create', () => {
    const { problem } = explained(
      toPayments,
      finding('ResolvedRefs', 'RefNotPermitted', mode),
      mode
    )
    expect(problem?.title).toBe(
      'RefNotPermitted disagrees with what route-gate read: ReferenceGrant payments/allow-grpc permits GRPCRoute in shop to reference Service payments/payments:9000 (rule 0 backendRef 0)'
    )
    expect(fixText(problem)).toBeUndefined()
  })

  it('NotAllowedByListeners while the selected listener admits the namespace: they disagree', () => {
    const { problem } = explained(
      route({}),
      finding('Accepted', 'NotAllowedByListeners', mode),
      mode,
      'internal'
    )
    expect(problem?.title).toBe(
      'NotAllowedByListeners disagrees with what route-gate read: By its spec, listener http (port 8080, HTTP) of Gateway infra/internal admits this HTTPRoute from namespace shop'
    )
    expect(fixText(problem)).toBeUndefined()
    // the web Gateway's listeners refuse namespace shop (Same, a selector it does not match): confirmed
    const refused = explained(route({}), finding('Accepted', 'NotAllowedByListeners', mode), mode)
    expect(refused.problem?.title).not.toContain('disagrees')
  })
})

describe('definitelyFailed: what fail-fast may stop at', () => {
  const failed = (r: RouteObject, f: Finding, parent = 'web') =>
    explained(r, f, 'live', parent).verdict
  it('not a failure the reads contradict', () => {
    const contradicted = [
      failed(toCart, finding('ResolvedRefs', 'BackendNotFound', 'live')),
      failed(toPayments, finding('ResolvedRefs', 'RefNotPermitted', 'live')),
      failed(route({}), finding('Accepted', 'NotAllowedByListeners', 'live'), 'internal')
    ]
    for (const verdict of contradicted) expect(definitelyFailed(verdict, baseWorld())).toBe(false)
  })

  it('a failure the reads confirm, or cannot check', () => {
    const wrongPort = route({ rules: [{ backendRefs: [{ name: 'cart', port: 80 }] }] })
    expect(
      definitelyFailed(
        failed(wrongPort, finding('ResolvedRefs', 'BackendNotFound', 'live')),
        baseWorld()
      )
    ).toBe(true)
    expect(
      definitelyFailed(
        failed(route({}), finding('Accepted', 'NotAllowedByListeners', 'live')),
        baseWorld()
      )
    ).toBe(true)
    const blind: World = {
      ...baseWorld(),
      services: [],
      unreadable: ['services in namespace shop: forbidden (list)']
    }
    expect(
      definitelyFailed(failed(toCart, finding('ResolvedRefs', 'BackendNotFound', 'live')), blind)
    ).toBe(true)
  })
})

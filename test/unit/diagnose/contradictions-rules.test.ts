// definitelyFailed decides whether fail-fast may stop the gate: only when at least one error on a
// failed parent (or on the Route itself) is not contradicted by route-gate's own reads. Each branch
// is pinned here with the status shapes the model hands over.
import { describe, expect, it } from 'vitest'
import { definitelyFailed, missingGatewayParents } from '../../../src/diagnose/contradictions.ts'
import type { Finding } from '../../../src/model/types.ts'
import { baseWorld, ref, route, routeVerdict } from '../../fixtures/diagnose/world.ts'

const ISTIO = 'istio.io/gateway-controller'
const error = (condition: string, reason: string): Finding => ({
  condition,
  reason,
  severity: 'error',
  controllerName: ISTIO
})
// the Service shop/cart exists with port 8080: a BackendNotFound for it is contradicted
const contradicted = error('ResolvedRefs', 'BackendNotFound')
// the web Gateway's listeners refuse namespace shop: a NotAllowedByListeners there is confirmed
const confirmed = error('Accepted', 'NotAllowedByListeners')

const toCart = (parentRefs: unknown[] = [{ name: 'web', namespace: 'infra' }]) =>
  route({ parentRefs, rules: [{ backendRefs: [{ name: 'cart', port: 8080 }] }] })

describe('definitelyFailed', () => {
  it('a Route-level error (being deleted, no parentRefs) is definite even when every parent is ready', () => {
    const terminating = routeVerdict(toCart(), [{ parentRef: ref('web'), verdict: 'ready' }], {
      verdict: 'failed',
      findings: [
        {
          reason: 'Terminating',
          severity: 'error',
          deletionTimestamp: '2026-11-20T11:00:00Z',
          finalizers: []
        }
      ]
    })
    expect(definitelyFailed(terminating, baseWorld())).toBe(true)
    const noParents = routeVerdict(route({}), [], {
      verdict: 'failed',
      findings: [{ reason: 'NoParentRefs', severity: 'error' }]
    })
    expect(definitelyFailed(noParents, baseWorld())).toBe(true)
  })

  it('one confirmed failed parent is enough, the other parents being ready', () => {
    const verdict = routeVerdict(
      toCart([
        { name: 'web', namespace: 'infra' },
        { name: 'internal', namespace: 'infra' }
      ]),
      [
        { parentRef: ref('web'), finding: confirmed, verdict: 'failed' },
        { parentRef: ref('internal'), verdict: 'ready' }
      ]
    )
    expect(verdict.verdict).toBe('failed')
    expect(definitelyFailed(verdict, baseWorld())).toBe(true)
  })

  it('one confirmed error on a parent is enough when another error there is contradicted', () => {
    const verdict = routeVerdict(toCart(), [
      { parentRef: ref('web'), finding: [contradicted, confirmed], verdict: 'failed' }
    ])
    expect(definitelyFailed(verdict, baseWorld())).toBe(true)
  })

  it('a warning beside a contradicted error does not make the failure definite', () => {
    // Contour in non-strict mode: PartiallyInvalid rides along as a warning
    const partial: Finding = {
      condition: 'PartiallyInvalid',
      reason: 'RuleMatchPartiallyConflict',
      severity: 'warning',
      controllerName: 'projectcontour.io/gateway-controller'
    }
    const verdict = routeVerdict(toCart(), [
      { parentRef: ref('web'), finding: [contradicted, partial], verdict: 'failed' }
    ])
    expect(definitelyFailed(verdict, baseWorld())).toBe(false)
  })

  it('an error on a parent that is still pending (another listener has not answered) does not count', () => {
    // a parentRef without sectionName: one listener entry failed, another is stale, so the parent waits
    const verdict = routeVerdict(
      toCart([
        { name: 'web', namespace: 'infra' },
        { name: 'internal', namespace: 'infra' }
      ]),
      [
        { parentRef: ref('web'), finding: contradicted, verdict: 'failed' },
        {
          parentRef: ref('internal'),
          finding: [
            error('Accepted', 'NoMatchingListenerHostname'),
            { reason: 'StaleStatus', severity: 'warning', controllerName: ISTIO }
          ],
          verdict: 'pending'
        }
      ]
    )
    expect(verdict.verdict).toBe('failed')
    expect(definitelyFailed(verdict, baseWorld())).toBe(false)
  })

  it('a Route that is not failed is never definite', () => {
    const pending = routeVerdict(toCart(), [
      {
        parentRef: ref('web'),
        finding: { reason: 'NoStatus', severity: 'warning' },
        verdict: 'pending'
      }
    ])
    expect(definitelyFailed(pending, baseWorld())).toBe(false)
  })
})

describe('missingGatewayParents', () => {
  const noStatus: Finding = { reason: 'NoStatus', severity: 'warning' }
  const waitingOn = (...names: string[]) =>
    routeVerdict(
      toCart(names.map((name) => ({ name, namespace: 'infra' }))),
      names.map((name) => ({
        parentRef: ref(name),
        finding: noStatus,
        verdict: 'pending' as const
      }))
    )

  it('names a Gateway the reads prove absent, never one that exists', () => {
    expect(missingGatewayParents(waitingOn('web', 'gone'), baseWorld())).toEqual([ref('gone')])
  })

  it('proves nothing where the Gateways could not be read', () => {
    const blind = { ...baseWorld(), unreadable: ['gateways in namespace infra: forbidden (list)'] }
    expect(missingGatewayParents(waitingOn('gone'), blind)).toEqual([])
  })

  it('looks only at parents still waiting for any status, and only at Gateways', () => {
    const stale = routeVerdict(toCart([{ name: 'gone', namespace: 'infra' }]), [
      {
        parentRef: ref('gone'),
        finding: { reason: 'StaleStatus', severity: 'warning' },
        verdict: 'pending'
      }
    ])
    expect(missingGatewayParents(stale, baseWorld())).toEqual([])
    const service = routeVerdict(toCart([{ name: 'gone', namespace: 'infra', kind: 'Service' }]), [
      {
        parentRef: ref('gone', { kind: 'Service', group: '' }),
        finding: noStatus,
        verdict: 'pending'
      }
    ])
    expect(missingGatewayParents(service, baseWorld())).toEqual([])
  })
})

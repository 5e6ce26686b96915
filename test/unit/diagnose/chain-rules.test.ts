// Rules of the path line (Route → parent → listener → backends): which hop a reason breaks, what a
// waiting or warning finding leaves alone, and what cannot be known is "unknown", not "broken".
import { describe, expect, it } from 'vitest'
import { parentChain } from '../../../src/diagnose/chain.ts'
import type { Condition, Finding, ParentRef, World } from '../../../src/model/types.ts'
import { baseWorld, parentVerdict, ref, route } from '../../fixtures/diagnose/world.ts'
import type { ParentInput } from '../../fixtures/diagnose/world.ts'

const CONTOUR = 'projectcontour.io/gateway-controller'
const toCart = { rules: [{ backendRefs: [{ name: 'cart', port: 8080 }] }] }
const failed = (condition: string, reason: string, message?: string): Finding => ({
  condition,
  reason,
  severity: 'error',
  ...(message ? { message } : {})
})
const cond = (type: string, status: Condition['status'], fresh = true): Condition => ({
  type,
  status,
  observedGeneration: fresh ? 2 : 1,
  fresh
})

function chainOf(spec: Record<string, unknown>, input: ParentInput, world: World = baseWorld()) {
  return parentChain(route(spec), parentVerdict(input), world).map((l) => [l.label, l.state])
}

describe('which hop a reason breaks', () => {
  it('leaves every hop alone while status is only missing or old (live StaleStatus is an error)', () => {
    expect(
      chainOf(toCart, {
        parentRef: ref('web', { sectionName: 'http' }),
        verdict: 'failed',
        finding: { reason: 'StaleStatus', severity: 'error', condition: 'Accepted' },
        conditions: [cond('Accepted', 'True', false), cond('ResolvedRefs', 'True', false)]
      })
    ).toEqual([
      ['HTTPRoute shop/storefront', 'ok'],
      ['Gateway infra/web', 'ok'],
      // stale True says nothing about the current spec
      ['listener http', 'unknown'],
      ['Service shop/cart:8080', 'unknown']
    ])
  })

  it('breaks nothing for a warning (PartiallyInvalid) beside a pending condition', () => {
    const chain = chainOf(toCart, {
      parentRef: ref('web', { sectionName: 'http' }),
      verdict: 'pending',
      finding: [
        { condition: 'PartiallyInvalid', reason: 'UnsupportedValue', severity: 'warning' },
        { condition: 'ResolvedRefs', reason: 'ConditionUnknown', severity: 'warning' }
      ],
      conditions: [cond('ResolvedRefs', 'True'), cond('Accepted', 'Unknown')]
    })
    expect(chain).toEqual([
      ['HTTPRoute shop/storefront', 'ok'],
      ['Gateway infra/web', 'ok'],
      // the listener takes its state from Accepted, not from the first condition
      ['listener http', 'unknown'],
      ['Service shop/cart:8080', 'ok']
    ])
  })

  it("breaks the Route on a reason about the Route's own spec, and keeps the listener ok", () => {
    expect(
      chainOf(toCart, {
        parentRef: ref('web', { sectionName: 'http' }),
        finding: failed('Accepted', 'UnsupportedValue'),
        conditions: [cond('Accepted', 'False'), cond('ResolvedRefs', 'True')]
      })
    ).toEqual([
      ['HTTPRoute shop/storefront', 'broken'],
      ['Gateway infra/web', 'ok'],
      ['listener http', 'ok'],
      ['Service shop/cart:8080', 'ok']
    ])
  })

  it('breaks the backends on any other reason on ResolvedRefs', () => {
    expect(
      chainOf(toCart, {
        parentRef: ref('web', { sectionName: 'http' }),
        controllerName: 'example.com/gateway-controller',
        finding: failed('ResolvedRefs', 'BackendTLSPolicyInvalid'),
        conditions: [cond('Accepted', 'True')]
      })
    ).toEqual([
      ['HTTPRoute shop/storefront', 'ok'],
      ['Gateway infra/web', 'ok'],
      ['listener http', 'ok'],
      ['Service shop/cart:8080', 'broken']
    ])
  })

  it("breaks the backends on a controller's own reason like BackendNotFound, whatever its condition", () => {
    // Contour writes Accepted=False Degraded for a rule whose backendRef lacks a port
    const chain = chainOf(
      toCart,
      {
        parentRef: ref('web', { sectionName: 'http' }),
        controllerName: CONTOUR,
        finding: failed('Accepted', 'Degraded'),
        conditions: [cond('ResolvedRefs', 'True')]
      },
      baseWorld('contour', CONTOUR)
    )
    expect(chain[0]).toEqual(['HTTPRoute shop/storefront', 'ok'])
    expect(chain.at(-1)).toEqual(['Service shop/cart:8080', 'broken'])
  })

  it('breaks both the Route and the missing backend when both kinds of reason fail', () => {
    const chain = chainOf(
      {
        rules: [
          {
            backendRefs: [
              { name: 'cart', port: 8080 },
              { name: 'carts', port: 8080 }
            ]
          }
        ]
      },
      {
        parentRef: ref('web', { sectionName: 'http' }),
        finding: [failed('Accepted', 'UnsupportedValue'), failed('ResolvedRefs', 'BackendNotFound')]
      }
    )
    expect(chain.filter(([, s]) => s === 'broken').map(([l]) => l)).toEqual([
      'HTTPRoute shop/storefront',
      'Service shop/carts:8080'
    ])
  })
})

describe('parents that are not Gateways', () => {
  const service: ParentRef = { group: '', kind: 'Service', namespace: 'shop', name: 'cart' }

  it.each([
    ['failed', failed('ResolvedRefs', 'BackendNotFound'), 'broken'],
    ['pending', { reason: 'NoStatus', severity: 'warning' }, 'unknown'],
    ['ready', undefined, 'ok']
  ] as const)('draws a %s mesh Service parent as two links', (verdict, finding, state) => {
    expect(
      chainOf(toCart, {
        parentRef: service,
        verdict,
        controllerName: 'linkerd.io/gateway-controller',
        ...(finding ? { finding } : {})
      })
    ).toEqual([
      ['HTTPRoute shop/storefront', 'ok'],
      ['Service shop/cart', state]
    ])
  })

  it('marks the Route, not the Service parent, on a reason about the Route', () => {
    expect(
      chainOf(toCart, {
        parentRef: service,
        controllerName: 'linkerd.io/gateway-controller',
        finding: failed('Accepted', 'UnsupportedValue')
      })
    ).toEqual([
      ['HTTPRoute shop/storefront', 'broken'],
      ['Service shop/cart', 'ok']
    ])
  })
})

describe('the Gateway and listener hops', () => {
  const noStatus: Finding = { reason: 'NoStatus', severity: 'warning' }

  it('calls a Gateway that cannot be read unknown, not missing', () => {
    const world: World = {
      ...baseWorld(),
      gateways: [],
      unreadable: ['gateways in namespace infra: forbidden (list)']
    }
    expect(
      chainOf(toCart, { parentRef: ref('web'), verdict: 'pending', finding: noStatus }, world)
    ).toEqual([
      ['HTTPRoute shop/storefront', 'ok'],
      ['Gateway infra/web', 'unknown'],
      ['Service shop/cart:8080', 'unknown']
    ])
  })

  it('shows the listener a sectionName names even when it refuses the kind', () => {
    const chain = chainOf(toCart, {
      parentRef: ref('web', { sectionName: 'passthrough' }),
      finding: failed('Accepted', 'NotAllowedByListeners')
    })
    expect(chain[2]).toEqual(['listener passthrough', 'broken'])
  })

  it('leaves out listeners that do not take the kind when no sectionName is set', () => {
    const chain = chainOf(toCart, {
      parentRef: ref('web'),
      finding: failed('ResolvedRefs', 'BackendNotFound'),
      conditions: [cond('Accepted', 'True')]
    })
    expect(chain[2]).toEqual(['listeners http, https', 'ok'])
  })

  it('names a port that matches no listener', () => {
    expect(
      chainOf(toCart, {
        parentRef: ref('web', { port: 9443 }),
        finding: failed('Accepted', 'NoMatchingParent')
      })[2]
    ).toEqual(['no listener on port 9443', 'broken'])
    expect(
      chainOf(toCart, {
        parentRef: ref('web', { sectionName: 'admin', port: 9443 }),
        finding: failed('Accepted', 'NoMatchingParent')
      })[2]
    ).toEqual(['no listener named admin on port 9443', 'broken'])
  })

  it('marks a listener that does not exist even before any controller wrote status', () => {
    expect(
      chainOf(toCart, {
        parentRef: ref('web', { sectionName: 'admin' }),
        verdict: 'pending',
        finding: noStatus
      })[2]
    ).toEqual(['no listener named admin', 'broken'])
  })
})

describe('the backend hops', () => {
  it('marks no rule without backendRefs unless the controller says so (a redirect rule, a mirror-only rule)', () => {
    const spec = {
      rules: [
        { filters: [{ type: 'RequestRedirect', requestRedirect: { scheme: 'https' } }] },
        { backendRefs: [{ name: 'carts', port: 8080 }] }
      ]
    }
    const chain = chainOf(spec, {
      parentRef: ref('web', { sectionName: 'http' }),
      finding: failed('ResolvedRefs', 'BackendNotFound'),
      conditions: [cond('Accepted', 'True')]
    })
    expect(chain.map(([l]) => l)).not.toContainEqual(expect.stringMatching(/no backendRefs/))
    expect(chain.at(-1)).toEqual(['Service shop/carts:8080', 'broken'])
  })

  it('marks no rule without backendRefs that the controller did not complain about (a direct response)', () => {
    const spec = {
      rules: [
        {
          matches: [{ path: { type: 'Exact', value: '/healthz' } }],
          filters: [
            {
              type: 'ExtensionRef',
              extensionRef: { group: 'gateway.envoyproxy.io', kind: 'HTTPRouteFilter', name: 'ok' }
            }
          ]
        },
        { backendRefs: [{ name: 'carts', port: 8080 }] }
      ]
    }
    const chain = chainOf(spec, {
      parentRef: ref('web', { sectionName: 'http' }),
      finding: failed('ResolvedRefs', 'BackendNotFound', 'service shop/carts not found'),
      conditions: [cond('Accepted', 'True')]
    })
    expect(chain.slice(3)).toEqual([['Service shop/carts:8080', 'broken']])
  })

  it('on a message about rules without backendRefs, vouches only for backends read with their port', () => {
    const spec = {
      rules: [
        { matches: [{ path: { type: 'PathPrefix', value: '/old' } }] },
        { backendRefs: [{ name: 'cart', port: 8080 }] },
        { backendRefs: [{ name: 'checkout', port: 8081 }] },
        { backendRefs: [{ name: 'wishlist', port: 80 }] }
      ]
    }
    const chain = chainOf(
      spec,
      {
        parentRef: ref('web', { sectionName: 'http' }),
        controllerName: CONTOUR,
        finding: failed(
          'Accepted',
          'Degraded',
          'At least one Spec.Rules.BackendRef must be specified.'
        )
      },
      baseWorld('contour', CONTOUR)
    )
    expect(chain.slice(3)).toEqual([
      ['Service shop/cart:8080', 'ok'],
      ['Service shop/checkout:8081', 'unknown'],
      ['Service shop/wishlist:80', 'unknown'],
      ['rule 0: no backendRefs', 'broken']
    ])
  })

  it('draws no backend link for a Route without backendRefs', () => {
    const chain = chainOf(
      { rules: [{ filters: [{ type: 'RequestRedirect', requestRedirect: { scheme: 'https' } }] }] },
      {
        parentRef: ref('edge'),
        verdict: 'pending',
        finding: { reason: 'NoStatus', severity: 'warning' }
      }
    )
    expect(chain.map(([l]) => l)).toEqual(['HTTPRoute shop/storefront', 'Gateway infra/edge'])
  })

  it('does not single out a backend a Service lookup says nothing about', () => {
    const spec = {
      rules: [
        {
          backendRefs: [
            { name: 'cart', port: 8080 },
            { group: 'inference.networking.k8s.io', kind: 'InferencePool', name: 'pool' }
          ]
        }
      ]
    }
    const chain = chainOf(spec, {
      parentRef: ref('web', { sectionName: 'http' }),
      finding: failed('ResolvedRefs', 'BackendNotFound'),
      conditions: [cond('Accepted', 'True')]
    })
    expect(chain.slice(3).map(([, s]) => s)).toEqual(['broken', 'broken'])
  })

  it('does not single out a backend whose namespace could not be read', () => {
    const spec = {
      rules: [
        {
          backendRefs: [
            { name: 'cart', port: 8080 },
            { name: 'ledger', namespace: 'billing', port: 80 }
          ]
        }
      ]
    }
    const world: World = {
      ...baseWorld(),
      unreadable: ['services in namespace billing: forbidden (list)']
    }
    const chain = chainOf(
      spec,
      {
        parentRef: ref('web', { sectionName: 'http' }),
        finding: failed('ResolvedRefs', 'BackendNotFound'),
        conditions: [cond('Accepted', 'True')]
      },
      world
    )
    expect(chain.slice(3).map(([, s]) => s)).toEqual(['broken', 'broken'])
  })
})

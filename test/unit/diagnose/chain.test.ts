import { describe, expect, it } from 'vitest'
import { parentChain } from '../../../src/diagnose/chain.ts'
import { namespacesToRead } from '../../../src/model/route-spec.ts'
import type { ChainLink, Condition, Finding } from '../../../src/model/types.ts'
import { baseWorld, parentVerdict, ref, route } from '../../fixtures/diagnose/world.ts'

const spec = (backends: Record<string, unknown>[], sectionName?: string) => ({
  parentRefs: [{ name: 'web', namespace: 'infra', ...(sectionName ? { sectionName } : {}) }],
  rules: [{ backendRefs: backends }]
})
const failed = (condition: string, reason: string): Finding => ({
  condition,
  reason,
  severity: 'error'
})
const ok = (type: string): Condition => ({ type, status: 'True', fresh: true })
const broken = (chain: ChainLink[]) => chain.filter((l) => l.state === 'broken').map((l) => l.label)

describe('parentChain', () => {
  it('marks the missing Service, not its healthy sibling, on BackendNotFound', () => {
    const r = route(
      spec(
        [
          { name: 'cart', port: 8080 },
          { name: 'carts', port: 8080 }
        ],
        'http'
      )
    )
    const chain = parentChain(
      r,
      parentVerdict({
        parentRef: ref('web', { sectionName: 'http' }),
        finding: failed('ResolvedRefs', 'BackendNotFound'),
        conditions: [ok('Accepted')]
      }),
      baseWorld()
    )
    expect(chain.map((l) => [l.label, l.state])).toEqual([
      ['HTTPRoute shop/storefront', 'ok'],
      ['Gateway infra/web', 'ok'],
      ['listener http', 'ok'],
      ['Service shop/cart:8080', 'ok'],
      ['Service shop/carts:8080', 'broken']
    ])
  })

  it('marks the listener when the attachment is refused', () => {
    const chain = parentChain(
      route(spec([{ name: 'cart', port: 8080 }], 'https')),
      parentVerdict({
        parentRef: ref('web', { sectionName: 'https' }),
        finding: failed('Accepted', 'NotAllowedByListeners'),
        conditions: [ok('ResolvedRefs')]
      }),
      baseWorld()
    )
    expect(broken(chain)).toEqual(['listener https'])
  })

  it('names a sectionName that matches no listener', () => {
    const chain = parentChain(
      route(spec([{ name: 'cart', port: 8080 }], 'admin')),
      parentVerdict({
        parentRef: ref('web', { sectionName: 'admin' }),
        finding: failed('Accepted', 'NoMatchingParent')
      }),
      baseWorld()
    )
    expect(broken(chain)).toEqual(['no listener named admin'])
  })

  it('marks a Gateway that does not exist, and leaves the rest unknown', () => {
    const chain = parentChain(
      route(spec([{ name: 'cart', port: 8080 }])),
      parentVerdict({
        parentRef: ref('edge'),
        verdict: 'pending',
        controllerName: null,
        finding: { reason: 'NoStatus', severity: 'warning' }
      }),
      baseWorld()
    )
    expect(chain.map((l) => l.state)).toEqual(['ok', 'broken', 'unknown'])
  })

  it('marks the cross-namespace backend on RefNotPermitted', () => {
    const chain = parentChain(
      route(
        spec([
          { name: 'cart', port: 8080 },
          { name: 'payments', namespace: 'payments', port: 9000 }
        ])
      ),
      parentVerdict({ parentRef: ref('web'), finding: failed('ResolvedRefs', 'RefNotPermitted') }),
      baseWorld()
    )
    expect(broken(chain)).toEqual(['Service payments/payments:9000'])
  })

  it('lists, for a parentRef without sectionName, only the listeners that take the Route kind', () => {
    const chain = parentChain(
      route(spec([{ name: 'cart', port: 8080 }])),
      parentVerdict({ parentRef: ref('web'), finding: failed('ResolvedRefs', 'BackendNotFound') }),
      baseWorld()
    )
    expect(chain[2]).toEqual({ label: 'listeners http, https', state: 'unknown' })
  })
})

describe('parentChain marks the hop the reason is about', () => {
  const r = () => route(spec([{ name: 'cart', port: 8080 }], 'https'))
  const chainFor = (finding: Finding, controllerName = 'istio.io/gateway-controller') =>
    parentChain(
      r(),
      parentVerdict({
        parentRef: ref('web', { sectionName: 'https' }),
        finding,
        controllerName,
        conditions: [ok('ResolvedRefs')]
      }),
      baseWorld()
    )

  it.each([
    ['NoMatchingListenerHostname', 'listener https'],
    ['NoMatchingParent', 'listener https'],
    ['UnsupportedValue', 'HTTPRoute shop/storefront'],
    ['IncompatibleFilters', 'HTTPRoute shop/storefront'],
    ['InvalidConfiguration', 'HTTPRoute shop/storefront']
  ])('Accepted=False %s: %s', (reason, hop) => {
    expect(broken(chainFor(failed('Accepted', reason)))).toEqual([hop])
  })

  it('a backend reason marks the backend, not the listener', () => {
    expect(broken(chainFor(failed('ResolvedRefs', 'InvalidKind')))).toEqual([
      'Service shop/cart:8080'
    ])
  })

  it("a controller's own reason counts as the standard one it is like", () => {
    // Istio's ParentRefConflict is like NoMatchingParent
    expect(
      broken(chainFor(failed('Accepted', 'ParentRefConflict'), 'istio.io/gateway-controller'))
    ).toEqual(['listener https'])
  })
})

describe('parentChain for rules without backendRefs', () => {
  it('marks the empty rule, not the valid backend of another rule', () => {
    const r = route({
      parentRefs: [{ name: 'web', namespace: 'infra', sectionName: 'http' }],
      rules: [
        {
          matches: [{ path: { type: 'PathPrefix', value: '/' } }],
          backendRefs: [{ name: 'cart', port: 8080 }]
        },
        { matches: [{ path: { type: 'PathPrefix', value: '/old' } }] }
      ]
    })
    const chain = parentChain(
      r,
      parentVerdict({
        parentRef: ref('web', { sectionName: 'http' }),
        controllerName: 'projectcontour.io/gateway-controller',
        finding: {
          ...failed('ResolvedRefs', 'Degraded'),
          message: 'At least one Spec.Rules.BackendRef must be specified.'
        },
        conditions: [ok('Accepted')]
      }),
      baseWorld('contour', 'projectcontour.io/gateway-controller')
    )
    expect(chain.map((l) => [l.label, l.state])).toEqual([
      ['HTTPRoute shop/storefront', 'ok'],
      ['Gateway infra/web', 'ok'],
      ['listener http', 'ok'],
      ['Service shop/cart:8080', 'ok'],
      ['rule 1: no backendRefs', 'broken']
    ])
  })
})

describe('namespacesToRead', () => {
  it("reads the Routes' own, their parents' and their backends' namespaces, once each", () => {
    const r = route({
      parentRefs: [
        { name: 'web', namespace: 'infra' },
        { name: 'mesh', kind: 'Service', group: '' }
      ],
      rules: [
        {
          backendRefs: [
            { name: 'a', port: 80 },
            { name: 'b', namespace: 'payments', port: 80 }
          ]
        }
      ]
    })
    expect(namespacesToRead([r, r])).toEqual(['infra', 'payments', 'shop'])
  })
})

import { describe, expect, it } from 'vitest'
import { parentChain } from '../../../src/diagnose/chain.ts'
import { namespacesToRead } from '../../../src/diagnose/route-spec.ts'
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

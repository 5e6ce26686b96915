// Which status entry belongs to which spec parentRef (design.md, verdict rule 2). Each case is a
// healthy entry that belongs to a different parent than the ref: matched wrongly, it would turn a
// Route nobody has accepted into "ready".
import { describe, expect, it } from 'vitest'
import { DEFAULT_CONDITIONS, evaluateRoute } from '../../../src/model/evaluate.ts'
import { assignEntries } from '../../../src/model/matching.ts'
import { normalizeParentRef } from '../../../src/model/parent-ref.ts'
import { readEntries } from '../../../src/model/entries.ts'
import type { VerdictOptions } from '../../../src/model/types.ts'
import {
  ENVOY,
  ISTIO,
  cond,
  entry,
  gatewayWorld,
  gwRef,
  healthy,
  route
} from '../../fixtures/model/build.ts'

const OPTIONS: VerdictOptions = { conditions: DEFAULT_CONDITIONS, strict: false, final: false }
const WORLD = gatewayWorld(
  [
    { namespace: 'shop', name: 'edge', className: 'eg' },
    { namespace: 'infra', name: 'edge', className: 'eg' }
  ],
  { eg: ENVOY }
)

/** The Route's only ref, and a healthy entry for `other`: the ref stays unanswered. */
function unanswered(ref: Record<string, unknown>, other: Record<string, unknown>) {
  const r = route({ parentRefs: [ref], parents: [entry(other, healthy(2))] })
  return evaluateRoute(r, WORLD, OPTIONS)
}

describe('a status entry for another parent never answers a parentRef', () => {
  it.each([
    [
      'another sectionName',
      gwRef('edge', { sectionName: 'https' }),
      gwRef('edge', { sectionName: 'http' })
    ],
    ['another port', gwRef('edge', { port: 443 }), gwRef('edge', { port: 80 })],
    [
      'another namespace',
      gwRef('edge', { namespace: 'infra' }),
      gwRef('edge', { namespace: 'shop' })
    ],
    ['another kind', gwRef('edge'), gwRef('edge', { kind: 'ListenerSet' })],
    ['another group', gwRef('edge'), gwRef('edge', { group: 'gateway.networking.x-k8s.io' })],
    ['another name', gwRef('edge'), gwRef('edge2')]
  ])('%s: NoStatus, the entry listed as an orphan', (_, ref, other) => {
    const v = unanswered(ref, other)
    expect(v.verdict).toBe('pending')
    expect(v.parents[0]!.findings).toEqual([{ reason: 'NoStatus', severity: 'warning' }])
    expect(v.orphans).toEqual([entry(other, healthy(2))])
  })

  it('another sectionName on an unscoped-by-port ref with the same port: still not the ref', () => {
    const v = unanswered(
      gwRef('edge', { sectionName: 'https', port: 443 }),
      gwRef('edge', { sectionName: 'http', port: 443 })
    )
    expect(v.parents[0]!.findings[0]!.reason).toBe('NoStatus')
  })

  it('fails at the deadline instead of borrowing the other parent’s Accepted', () => {
    const r = route({
      parentRefs: [gwRef('edge', { namespace: 'infra' })],
      parents: [entry(gwRef('edge'), healthy(2))]
    })
    const v = evaluateRoute(r, WORLD, { ...OPTIONS, final: true })
    expect(v.verdict).toBe('failed')
    expect(v.parents[0]!.findings).toEqual([{ reason: 'NoStatus', severity: 'error' }])
  })
})

describe('an exact entry belongs only to its own ref', () => {
  // refs "edge" (whole Gateway) and "edge#https": a controller answered only the scoped one
  const refs = [gwRef('edge'), gwRef('edge', { sectionName: 'https' })]

  it('leaves the wider unscoped ref unanswered', () => {
    const r = route({
      parentRefs: refs,
      parents: [entry(gwRef('edge', { sectionName: 'https' }), healthy(2))]
    })
    const v = evaluateRoute(r, WORLD, OPTIONS)
    expect(v.parents.map((p) => [p.parentRef.sectionName, p.verdict])).toEqual([
      [undefined, 'pending'],
      ['https', 'ready']
    ])
    expect(v.parents[0]!.findings[0]!.reason).toBe('NoStatus')
    expect(v.verdict).toBe('pending')
  })

  it('assigns the scoped entry to the scoped ref alone, the unscoped one to the unscoped ref', () => {
    const refsNormalized = refs.map((r) => normalizeParentRef(r, 'shop'))
    const status = {
      parents: [
        entry(gwRef('edge', { sectionName: 'https' }), healthy(2)),
        entry(gwRef('edge'), [cond('Accepted', 'False', 'NotAllowedByListeners', 2)]),
        entry(gwRef('edge', { sectionName: 'http' }), healthy(2))
      ]
    }
    const entries = readEntries(status, 'shop', 2)
    const { owned, orphans } = assignEntries(refsNormalized, entries, () => true)
    const sections = (list: typeof entries) => list.map((e) => e.parentRef.sectionName ?? '')
    // "http" has no exact ref: it falls to the unscoped one; "https" is the scoped ref's alone
    expect(owned.map(sections)).toEqual([['', 'http'], ['https']])
    expect(orphans).toEqual([])
  })
})

describe('a ref scoped by one field owns entries that also set the other', () => {
  // design.md rule 2: sectionName and port must be equal where the ref sets them, and only there
  it.each([
    [
      'sectionName',
      gwRef('edge', { sectionName: 'https' }),
      gwRef('edge', { sectionName: 'https', port: 443 })
    ],
    ['port', gwRef('edge', { port: 443 }), gwRef('edge', { sectionName: 'https', port: 443 })]
  ])('a ref with only %s is answered by the entry that sets both', (_, ref, scoped) => {
    const r = route({ parentRefs: [ref], parents: [entry(scoped, healthy(2))] })
    const v = evaluateRoute(r, WORLD, OPTIONS)
    expect(v.parents[0]).toMatchObject({ verdict: 'ready', findings: [] })
    expect(v.orphans).toEqual([])
  })
})

describe('listener-scoped entries of an unscoped ref', () => {
  it('need an entry of the same parent: a healthy listener of another namespace is not one', () => {
    const r = route({
      parentRefs: [gwRef('edge')],
      parents: [
        entry(gwRef('edge', { sectionName: 'https', namespace: 'infra' }), healthy(2)),
        entry(gwRef('edge', { sectionName: 'http' }), [
          cond('Accepted', 'False', 'NotAllowedByListeners', 2),
          cond('ResolvedRefs', 'True', 'ResolvedRefs', 2)
        ])
      ]
    })
    const v = evaluateRoute(r, WORLD, OPTIONS)
    expect(v.verdict).toBe('failed')
    expect(v.parents[0]!.findings.map((f) => f.reason)).toEqual(['NotAllowedByListeners'])
    expect(v.orphans).toHaveLength(1)
  })
})

describe('the owner of a parent is its own Gateway’s class', () => {
  it('looks the Gateway up in the ref’s namespace, not another of the same name', () => {
    // shop/edge belongs to Envoy, infra/edge to another controller: only that one's entry counts
    const world = gatewayWorld(
      [
        { namespace: 'shop', name: 'edge', className: 'eg' },
        { namespace: 'infra', name: 'edge', className: 'other' }
      ],
      { eg: ENVOY, other: 'example.com/other-controller' }
    )
    const r = route({
      parentRefs: [gwRef('edge', { namespace: 'infra' })],
      parents: [entry(gwRef('edge', { namespace: 'infra' }), healthy(2), ENVOY)]
    })
    const v = evaluateRoute(r, world, OPTIONS)
    expect(v.verdict).toBe('pending')
    expect(v.parents[0]!.findings[0]!.reason).toBe('NoStatus')
    expect(v.parents[0]!.otherControllers.map((o) => o.controllerName)).toEqual([ENVOY])
  })

  it('is unknown for a Service parent, even one named like a Gateway beside it', () => {
    // mesh (GAMMA) parents have no GatewayClass: every entry that carries Accepted is judged
    const world = gatewayWorld([{ namespace: 'shop', name: 'api', className: 'eg' }], { eg: ENVOY })
    const svc = { group: '', kind: 'Service', name: 'api' }
    const r = route({ parentRefs: [svc], parents: [entry(svc, healthy(2), ISTIO)] })
    const v = evaluateRoute(r, world, OPTIONS)
    expect(v.parents[0]).toMatchObject({ verdict: 'ready', controllerName: ISTIO })
  })

  it('is unknown for a Gateway kind of another API group: it is not that Gateway', () => {
    const foreign = gwRef('edge', { group: 'example.com' })
    const r = route({ parentRefs: [foreign], parents: [entry(foreign, healthy(2), ISTIO)] })
    const v = evaluateRoute(r, WORLD, OPTIONS)
    expect(v.parents[0]).toMatchObject({ verdict: 'ready', controllerName: ISTIO })
  })

  it('judges nothing of another controller when the owner is known', () => {
    const r = route({
      parentRefs: [gwRef('edge')],
      parents: [entry(gwRef('edge'), healthy(2), 'example.com/other-controller')]
    })
    const v = evaluateRoute(r, WORLD, OPTIONS)
    expect(v.verdict).toBe('pending')
    expect(v.parents[0]!.findings[0]!.reason).toBe('NoStatus')
  })
})

import { describe, expect, it } from 'vitest'
import { DEFAULT_CONDITIONS, combineVerdicts, evaluateRoute } from '../../../src/model/evaluate.ts'
import type { VerdictOptions } from '../../../src/model/types.ts'
import {
  ENVOY,
  ISTIO,
  KUADRANT,
  LINKERD,
  NO_WORLD,
  cond,
  entry,
  gatewayWorld,
  gwRef,
  healthy,
  loadDump,
  route
} from '../../fixtures/model/build.ts'

const OPTIONS: VerdictOptions = { conditions: DEFAULT_CONDITIONS, strict: false, final: false }
const FINAL: VerdictOptions = { ...OPTIONS, final: true }
const STRICT: VerdictOptions = { ...OPTIONS, strict: true }
const ENVOY_WORLD = gatewayWorld([{ namespace: 'shop', name: 'edge', className: 'eg' }], {
  eg: ENVOY
})

describe('combineVerdicts', () => {
  it('ranks failed over pending over ready, and calls nothing ready', () => {
    expect(combineVerdicts([])).toBe('ready')
    expect(combineVerdicts(['ready', 'pending', 'ready'])).toBe('pending')
    expect(combineVerdicts(['pending', 'failed', 'ready'])).toBe('failed')
    expect(combineVerdicts(['ready'])).toBe('ready')
  })
})

describe('evaluateRoute: ready and required conditions', () => {
  it('is ready when every parent has fresh Accepted and ResolvedRefs True', () => {
    const r = route({
      generation: 2,
      parentRefs: [gwRef('edge')],
      parents: [entry(gwRef('edge'), healthy(2))]
    })
    const v = evaluateRoute(r, ENVOY_WORLD, OPTIONS)
    expect(v.verdict).toBe('ready')
    expect(v.parents).toHaveLength(1)
    expect(v.parents[0]).toMatchObject({
      parentRef: {
        group: 'gateway.networking.k8s.io',
        kind: 'Gateway',
        namespace: 'shop',
        name: 'edge'
      },
      verdict: 'ready',
      controllerName: ENVOY,
      findings: [],
      otherControllers: []
    })
    expect(v.parents[0]!.conditions.map((c) => [c.type, c.fresh])).toEqual([
      ['Accepted', true],
      ['ResolvedRefs', true]
    ])
    expect(v.notes).toEqual([])
    expect(v.orphans).toEqual([])
  })

  it('fails a fresh False condition with its reason and message', () => {
    const r = route({
      parentRefs: [gwRef('edge')],
      parents: [
        entry(gwRef('edge'), [
          cond('Accepted', 'True', 'Accepted', 2),
          cond('ResolvedRefs', 'False', 'BackendNotFound', 2, 'Service shop/web-v2 not found')
        ])
      ]
    })
    const v = evaluateRoute(r, ENVOY_WORLD, OPTIONS)
    expect(v.verdict).toBe('failed')
    expect(v.parents[0]!.findings).toEqual([
      {
        condition: 'ResolvedRefs',
        reason: 'BackendNotFound',
        severity: 'error',
        message: 'Service shop/web-v2 not found',
        controllerName: ENVOY,
        lastTransitionTime: '2026-11-20T10:00:00Z'
      }
    ])
  })

  it('splits comma-joined reasons into one finding each (Envoy Gateway dump)', () => {
    const { routes, world } = loadDump('envoy-comma-reasons.yaml')
    const v = evaluateRoute(routes[0]!, world, OPTIONS)
    expect(v.verdict).toBe('failed')
    const parent = v.parents[0]!
    expect(parent.findings.map((f) => [f.condition, f.reason, f.severity])).toEqual([
      ['Accepted', 'InvalidBackendFilters', 'error'],
      ['Accepted', 'UnsupportedValue', 'error']
    ])
    expect(parent.findings[1]!.message).toContain('unknown path match type')
    expect(parent.findings.every((f) => f.controllerName === ENVOY)).toBe(true)
    // the Kuadrant side entry is another controller's: shown, not judged
    expect(parent.otherControllers).toEqual([
      {
        controllerName: KUADRANT,
        conditions: [expect.objectContaining({ type: 'kuadrant.io/AuthPolicyAffected' })]
      }
    ])
    expect(parent.controllerName).toBe(ENVOY)
  })

  it('waits on Unknown, carrying the condition reason (Pending)', () => {
    const r = route({
      parentRefs: [gwRef('edge')],
      parents: [
        entry(gwRef('edge'), [
          cond('Accepted', 'Unknown', 'Pending', 2, 'Waiting for controller'),
          cond('ResolvedRefs', 'True', 'ResolvedRefs', 2)
        ])
      ]
    })
    const v = evaluateRoute(r, ENVOY_WORLD, OPTIONS)
    expect(v.verdict).toBe('pending')
    expect(v.parents[0]!.findings).toEqual([
      expect.objectContaining({
        condition: 'Accepted',
        reason: 'ConditionUnknown',
        conditionReason: 'Pending',
        severity: 'warning',
        message: 'Waiting for controller',
        controllerName: ENVOY
      })
    ])
  })

  it('waits on a missing required condition (ConditionMissing)', () => {
    const r = route({
      parentRefs: [gwRef('edge')],
      parents: [entry(gwRef('edge'), [cond('Accepted', 'True', 'Accepted', 2)])]
    })
    const v = evaluateRoute(r, ENVOY_WORLD, OPTIONS)
    expect(v.verdict).toBe('pending')
    expect(v.parents[0]!.findings).toEqual([
      {
        condition: 'ResolvedRefs',
        reason: 'ConditionMissing',
        severity: 'warning',
        controllerName: ENVOY
      }
    ])
  })

  it('judges the configured conditions only', () => {
    const r = route({
      parentRefs: [gwRef('edge')],
      parents: [entry(gwRef('edge'), [cond('Accepted', 'True', 'Accepted', 2)])]
    })
    const v = evaluateRoute(r, ENVOY_WORLD, { ...OPTIONS, conditions: ['Accepted'] })
    expect(v.verdict).toBe('ready')
  })

  it('fails over pending inside one entry', () => {
    const r = route({
      parentRefs: [gwRef('edge')],
      parents: [
        entry(gwRef('edge'), [
          cond('Accepted', 'False', 'NotAllowedByListeners', 2),
          cond('ResolvedRefs', 'Unknown', 'Pending', 2)
        ])
      ]
    })
    const v = evaluateRoute(r, ENVOY_WORLD, OPTIONS)
    expect(v.verdict).toBe('failed')
    expect(v.parents[0]!.findings.map((f) => [f.reason, f.severity])).toEqual([
      ['NotAllowedByListeners', 'error'],
      ['ConditionUnknown', 'warning']
    ])
  })
})

describe('evaluateRoute: freshness', () => {
  it('treats observedGeneration below metadata.generation as stale: pending with StaleStatus', () => {
    const r = route({
      generation: 5,
      parentRefs: [gwRef('edge')],
      parents: [
        entry(gwRef('edge'), [
          cond('Accepted', 'False', 'NotAllowedByListeners', 4),
          cond('ResolvedRefs', 'True', 'ResolvedRefs', 5)
        ])
      ]
    })
    const v = evaluateRoute(r, ENVOY_WORLD, OPTIONS)
    expect(v.verdict).toBe('pending')
    expect(v.parents[0]!.conditions.map((c) => c.fresh)).toEqual([false, true])
    expect(v.parents[0]!.findings).toEqual([
      expect.objectContaining({
        condition: 'Accepted',
        reason: 'StaleStatus',
        severity: 'warning',
        generation: 5,
        observedGeneration: 4,
        controllerName: ENVOY
      })
    ])
  })

  it('accepts conditions without observedGeneration and says so once (Linkerd, Service parent)', () => {
    const { routes } = loadDump('linkerd-service.yaml')
    const v = evaluateRoute(routes[0]!, NO_WORLD, OPTIONS)
    expect(v.verdict).toBe('ready')
    expect(v.parents[0]!.parentRef).toEqual({
      group: '',
      kind: 'Service',
      namespace: 'payments',
      name: 'api',
      port: 8080
    })
    expect(v.parents[0]!.controllerName).toBe(LINKERD)
    expect(v.parents[0]!.conditions.every((c) => c.fresh === true)).toBe(true)
    expect(v.notes).toEqual([
      `observedGeneration absent on conditions written by ${LINKERD}: freshness not proven`
    ])
  })

  it('accepts observedGeneration above metadata.generation and notes the controller bug', () => {
    const r = route({
      generation: 2,
      parentRefs: [gwRef('edge')],
      parents: [entry(gwRef('edge'), healthy(3))]
    })
    const v = evaluateRoute(r, ENVOY_WORLD, OPTIONS)
    expect(v.verdict).toBe('ready')
    expect(v.notes).toHaveLength(2)
    expect(v.notes[0]).toContain(
      'HTTPRoute shop/web: Accepted observedGeneration 3 is newer than metadata.generation 2'
    )
    expect(v.notes[0]).toContain(ENVOY)
  })

  it('cannot prove freshness without metadata.generation, and says so', () => {
    const r = route({
      generation: null,
      parentRefs: [gwRef('edge')],
      parents: [entry(gwRef('edge'), healthy(1))]
    })
    const v = evaluateRoute(r, ENVOY_WORLD, OPTIONS)
    expect(v.verdict).toBe('ready')
    expect(v.notes).toEqual([
      'HTTPRoute shop/web has no metadata.generation: freshness of its status not proven'
    ])
  })
})

describe('evaluateRoute: matching status entries to parentRefs', () => {
  it('matches by normalized fields, never by position', () => {
    const r = route({
      namespace: 'shop',
      parentRefs: [{ name: 'a' }, { name: 'b', namespace: 'infra' }],
      parents: [
        // listed in the other order, namespace of "a" written out, of "b" too
        entry(gwRef('b', { namespace: 'infra' }), [
          cond('Accepted', 'False', 'NotAllowedByListeners', 2),
          cond('ResolvedRefs', 'True', 'ResolvedRefs', 2)
        ]),
        entry(gwRef('a', { namespace: 'shop' }), healthy(2))
      ]
    })
    const v = evaluateRoute(r, NO_WORLD, OPTIONS)
    expect(v.parents.map((p) => [p.parentRef.name, p.verdict])).toEqual([
      ['a', 'ready'],
      ['b', 'failed']
    ])
    expect(v.verdict).toBe('failed')
  })

  it('keeps a Service parent (group "") apart from a Gateway-group ref of the same name', () => {
    const svc = { group: '', kind: 'Service', name: 'api' }
    const r = route({
      parentRefs: [svc],
      parents: [
        entry({ ...svc, namespace: 'shop' }, healthy(2), ISTIO),
        entry({ kind: 'Service', name: 'api' }, healthy(2), ISTIO)
      ]
    })
    const v = evaluateRoute(r, NO_WORLD, OPTIONS)
    expect(v.parents[0]!.verdict).toBe('ready')
    // the entry without a group is gateway.networking.k8s.io/Service: not the ref's
    expect(v.orphans).toEqual([
      { parentRef: { kind: 'Service', name: 'api' }, controllerName: ISTIO, conditions: healthy(2) }
    ])
  })

  it('gives a parent with no entry NoStatus: pending, a warning while waiting', () => {
    const r = route({
      parentRefs: [gwRef('edge'), gwRef('egde-typo')],
      parents: [entry(gwRef('edge'), healthy(2))]
    })
    const v = evaluateRoute(r, ENVOY_WORLD, OPTIONS)
    expect(v.verdict).toBe('pending')
    expect(v.parents[1]).toEqual({
      parentRef: {
        group: 'gateway.networking.k8s.io',
        kind: 'Gateway',
        namespace: 'shop',
        name: 'egde-typo'
      },
      verdict: 'pending',
      controllerName: null,
      conditions: [],
      findings: [{ reason: 'NoStatus', severity: 'warning' }],
      otherControllers: []
    })
  })

  it('treats a Route with no status at all as pending on every parent', () => {
    const r = route({ parentRefs: [gwRef('edge')] })
    const v = evaluateRoute(r, ENVOY_WORLD, OPTIONS)
    expect(v.verdict).toBe('pending')
    expect(v.parents[0]!.findings[0]!.reason).toBe('NoStatus')
  })

  it('lists entries of a removed parentRef as orphans, unjudged', () => {
    const old = entry(gwRef('legacy'), [cond('Accepted', 'False', 'NoMatchingParent', 1)])
    const r = route({
      parentRefs: [gwRef('edge')],
      parents: [entry(gwRef('edge'), healthy(2)), old]
    })
    const v = evaluateRoute(r, ENVOY_WORLD, OPTIONS)
    expect(v.verdict).toBe('ready')
    expect(v.orphans).toEqual([old])
    expect(v.parents).toHaveLength(1)
  })

  it('lets a sectionName ref own only its own entry', () => {
    const r = route({
      parentRefs: [gwRef('edge', { sectionName: 'https' }), gwRef('edge', { sectionName: 'http' })],
      parents: [
        entry(gwRef('edge', { sectionName: 'http' }), [
          cond('Accepted', 'False', 'NoMatchingParent', 2),
          cond('ResolvedRefs', 'True', 'ResolvedRefs', 2)
        ]),
        entry(gwRef('edge', { sectionName: 'https' }), healthy(2))
      ]
    })
    const v = evaluateRoute(r, ENVOY_WORLD, OPTIONS)
    expect(v.parents.map((p) => [p.parentRef.sectionName, p.verdict])).toEqual([
      ['https', 'ready'],
      ['http', 'failed']
    ])
  })

  it('does not give a scoped ref the unscoped entry', () => {
    const r = route({
      parentRefs: [gwRef('edge', { port: 443 })],
      parents: [entry(gwRef('edge'), healthy(2))]
    })
    const v = evaluateRoute(r, ENVOY_WORLD, OPTIONS)
    expect(v.parents[0]!.findings[0]!.reason).toBe('NoStatus')
    expect(v.orphans).toHaveLength(1)
  })

  it('lets the exact entry decide over listener-scoped ones', () => {
    const r = route({
      parentRefs: [gwRef('edge')],
      parents: [
        entry(gwRef('edge', { sectionName: 'http' }), [
          cond('Accepted', 'False', 'NotAllowedByListeners', 2)
        ]),
        entry(gwRef('edge'), healthy(2))
      ]
    })
    const v = evaluateRoute(r, ENVOY_WORLD, OPTIONS)
    expect(v.parents[0]!.verdict).toBe('ready')
    expect(v.orphans).toEqual([])
  })

  it('is ready when one of several listener-scoped entries accepts an unscoped ref', () => {
    const r = route({
      parentRefs: [gwRef('edge')],
      parents: [
        entry(gwRef('edge', { sectionName: 'http' }), [
          cond('Accepted', 'False', 'NotAllowedByListeners', 2),
          cond('ResolvedRefs', 'True', 'ResolvedRefs', 2)
        ]),
        entry(gwRef('edge', { sectionName: 'https' }), healthy(2))
      ]
    })
    const v = evaluateRoute(r, ENVOY_WORLD, OPTIONS)
    expect(v.parents[0]).toMatchObject({ verdict: 'ready', findings: [] })
    expect(v.parents[0]!.conditions[0]!.status).toBe('True')
  })

  it('fails an unscoped ref when every listener-scoped entry refuses', () => {
    const refuse = (section: string, reason: string) =>
      entry(gwRef('edge', { sectionName: section }), [
        cond('Accepted', 'False', reason, 2),
        cond('ResolvedRefs', 'True', 'ResolvedRefs', 2)
      ])
    const r = route({
      parentRefs: [gwRef('edge')],
      parents: [
        refuse('http', 'NotAllowedByListeners'),
        refuse('https', 'NoMatchingListenerHostname')
      ]
    })
    const v = evaluateRoute(r, ENVOY_WORLD, OPTIONS)
    expect(v.parents[0]!.verdict).toBe('failed')
    expect(v.parents[0]!.findings.map((f) => f.reason)).toEqual([
      'NotAllowedByListeners',
      'NoMatchingListenerHostname'
    ])
  })

  it('waits when listener-scoped entries are failed and pending', () => {
    const r = route({
      parentRefs: [gwRef('edge')],
      parents: [
        entry(gwRef('edge', { port: 80 }), [
          cond('Accepted', 'False', 'NotAllowedByListeners', 2),
          cond('ResolvedRefs', 'True', 'ResolvedRefs', 2)
        ]),
        entry(gwRef('edge', { port: 443 }), healthy(1))
      ]
    })
    const v = evaluateRoute(r, ENVOY_WORLD, OPTIONS)
    expect(v.parents[0]!.verdict).toBe('pending')
    expect(v.parents[0]!.findings.map((f) => f.reason)).toEqual([
      'NotAllowedByListeners',
      'StaleStatus',
      'StaleStatus'
    ])
  })
})

describe('evaluateRoute: owner of the parent', () => {
  it("judges only the GatewayClass controller's entries; others are shown", () => {
    const world = gatewayWorld([{ namespace: 'shop', name: 'edge', className: 'istio' }], {
      istio: ISTIO
    })
    const r = route({
      parentRefs: [gwRef('edge')],
      parents: [
        entry(gwRef('edge'), [cond('Accepted', 'False', 'NoMatchingParent', 2)], ENVOY),
        entry(gwRef('edge'), healthy(2), ISTIO)
      ]
    })
    const v = evaluateRoute(r, world, OPTIONS)
    expect(v.parents[0]!.verdict).toBe('ready')
    expect(v.parents[0]!.controllerName).toBe(ISTIO)
    expect(v.parents[0]!.otherControllers).toEqual([
      {
        controllerName: ENVOY,
        conditions: [expect.objectContaining({ type: 'Accepted', status: 'False', fresh: true })]
      }
    ])
  })

  it('gives NoStatus when only another controller wrote an entry', () => {
    const world = gatewayWorld([{ namespace: 'shop', name: 'edge', className: 'istio' }], {
      istio: ISTIO
    })
    const r = route({
      parentRefs: [gwRef('edge')],
      parents: [entry(gwRef('edge'), healthy(2), ENVOY)]
    })
    const v = evaluateRoute(r, world, OPTIONS)
    expect(v.parents[0]!.verdict).toBe('pending')
    expect(v.parents[0]!.findings).toEqual([{ reason: 'NoStatus', severity: 'warning' }])
    expect(v.parents[0]!.otherControllers).toHaveLength(1)
  })

  it('judges only entries with Accepted when the owner is unknown (side entries of policy add-ons)', () => {
    const side = entry(
      gwRef('edge'),
      [cond('kuadrant.io/RateLimitPolicyAffected', 'True', 'Accepted', 2)],
      KUADRANT
    )
    const r = route({
      parentRefs: [gwRef('edge')],
      parents: [side, entry(gwRef('edge'), healthy(2))]
    })
    const v = evaluateRoute(r, NO_WORLD, OPTIONS)
    expect(v.verdict).toBe('ready')
    expect(v.parents[0]!.controllerName).toBe(ENVOY)
    expect(v.parents[0]!.otherControllers.map((o) => o.controllerName)).toEqual([KUADRANT])
  })

  it('falls back to the Accepted rule when the Gateway or its class is not in the world', () => {
    const side = entry(
      gwRef('edge'),
      [cond('kuadrant.io/AuthPolicyAffected', 'True', 'Accepted', 2)],
      KUADRANT
    )
    const r = route({
      parentRefs: [gwRef('edge')],
      parents: [side, entry(gwRef('edge'), healthy(2), ISTIO)]
    })
    const otherNamespace = gatewayWorld([{ namespace: 'infra', name: 'edge', className: 'eg' }], {
      eg: ENVOY
    })
    const noClass = gatewayWorld([{ namespace: 'shop', name: 'edge', className: 'gone' }], {
      eg: ENVOY
    })
    for (const world of [otherNamespace, noClass]) {
      const v = evaluateRoute(r, world, OPTIONS)
      expect(v.parents[0]!.verdict).toBe('ready')
      expect(v.parents[0]!.controllerName).toBe(ISTIO)
    }
  })

  it('does not count a lone side entry as status', () => {
    const side = entry(
      gwRef('edge'),
      [cond('kuadrant.io/AuthPolicyAffected', 'True', 'Accepted', 2)],
      KUADRANT
    )
    const v = evaluateRoute(
      route({ parentRefs: [gwRef('edge')], parents: [side] }),
      NO_WORLD,
      OPTIONS
    )
    expect(v.parents[0]!.findings[0]!.reason).toBe('NoStatus')
  })

  it('requires every exact entry to be ready when several controllers report (worst wins)', () => {
    const r = route({
      parentRefs: [{ group: '', kind: 'Service', name: 'api' }],
      parents: [
        entry({ group: '', kind: 'Service', name: 'api' }, healthy(2), ISTIO),
        entry(
          { group: '', kind: 'Service', name: 'api' },
          [cond('Accepted', 'False', 'NoMatchingParent', 2)],
          LINKERD
        )
      ]
    })
    const v = evaluateRoute(r, NO_WORLD, OPTIONS)
    expect(v.parents[0]!.verdict).toBe('failed')
    expect(v.parents[0]!.controllerName).toBe(LINKERD)
    expect(v.parents[0]!.findings[0]).toMatchObject({
      reason: 'NoMatchingParent',
      controllerName: LINKERD
    })
  })
})

describe('evaluateRoute: PartiallyInvalid', () => {
  const { routes } = loadDump('partially-invalid.yaml')
  const fallback = routes.find((r) => r.metadata.name === 'fallback')!
  const dropped = routes.find((r) => r.metadata.name === 'dropped')!

  it('warns on Dropped Rule and stays ready', () => {
    const v = evaluateRoute(dropped, NO_WORLD, OPTIONS)
    expect(v.verdict).toBe('ready')
    expect(v.parents[0]!.findings).toEqual([
      expect.objectContaining({
        condition: 'PartiallyInvalid',
        reason: 'UnsupportedValue',
        severity: 'warning'
      })
    ])
  })

  it('fails Dropped Rule in strict mode', () => {
    const v = evaluateRoute(dropped, NO_WORLD, STRICT)
    expect(v.verdict).toBe('failed')
    expect(v.parents[0]!.findings[0]).toMatchObject({
      condition: 'PartiallyInvalid',
      severity: 'error'
    })
  })

  it('fails Fall Back at once instead of waiting for the old Accepted forever', () => {
    const v = evaluateRoute(fallback, NO_WORLD, OPTIONS)
    expect(v.verdict).toBe('failed')
    expect(v.parents[0]!.findings).toEqual([
      expect.objectContaining({
        condition: 'PartiallyInvalid',
        reason: 'FallBack',
        severity: 'error',
        generation: 5,
        observedGeneration: 3,
        controllerName: 'gateway.nginx.org/nginx-gateway-controller'
      })
    ])
    expect(v.parents[0]!.findings[0]!.message).toMatch(/^Fall Back:/)
  })

  it('waits when PartiallyInvalid itself is stale', () => {
    const r = route({
      generation: 6,
      parentRefs: [gwRef('edge')],
      parents: [
        entry(gwRef('edge'), [
          ...healthy(5),
          cond('PartiallyInvalid', 'True', 'UnsupportedValue', 5, 'Dropped Rule(s): 1')
        ])
      ]
    })
    const v = evaluateRoute(r, NO_WORLD, OPTIONS)
    expect(v.verdict).toBe('pending')
    expect(v.parents[0]!.findings.map((f) => f.reason)).toEqual(['StaleStatus', 'StaleStatus'])
  })
})

describe('evaluateRoute: BackendsAvailable', () => {
  const withBackends = (generation: number, observed: number) =>
    route({
      generation,
      parentRefs: [gwRef('edge')],
      parents: [
        entry(gwRef('edge'), [
          ...healthy(generation),
          cond('BackendsAvailable', 'False', 'EndpointsNotFound', observed, 'no endpoints')
        ])
      ]
    })

  it('stays ready with a warning when the controller reports backends without endpoints', () => {
    const v = evaluateRoute(withBackends(2, 2), ENVOY_WORLD, OPTIONS)
    expect(v.verdict).toBe('ready')
    expect(v.parents[0]!.findings).toEqual([
      expect.objectContaining({
        condition: 'BackendsAvailable',
        reason: 'EndpointsNotFound',
        severity: 'warning',
        controllerName: ENVOY
      })
    ])
  })

  it('says nothing about a BackendsAvailable=False of an older generation', () => {
    const v = evaluateRoute(withBackends(3, 2), ENVOY_WORLD, OPTIONS)
    expect(v.verdict).toBe('ready')
    expect(v.parents[0]!.findings).toEqual([])
  })

  it('fails instead when BackendsAvailable is a required condition', () => {
    const v = evaluateRoute(withBackends(2, 2), ENVOY_WORLD, {
      ...OPTIONS,
      conditions: [...DEFAULT_CONDITIONS, 'BackendsAvailable']
    })
    expect(v.verdict).toBe('failed')
    expect(v.parents[0]!.findings[0]).toMatchObject({
      reason: 'EndpointsNotFound',
      severity: 'error'
    })
  })
})

describe('evaluateRoute: no spec.parentRefs', () => {
  it('fails a Route served by nobody (NoParentRefs)', () => {
    const v = evaluateRoute(route({}), NO_WORLD, OPTIONS)
    expect(v.verdict).toBe('failed')
    expect(v.parents).toEqual([])
    expect(v.findings).toEqual([{ reason: 'NoParentRefs', severity: 'error' }])
  })

  it("judges a default Gateway's entry like any other", () => {
    const accepted = route({
      parents: [entry(gwRef('default', { namespace: 'infra' }), healthy(2))]
    })
    const ok = evaluateRoute(accepted, NO_WORLD, OPTIONS)
    expect(ok.verdict).toBe('ready')
    expect(ok.findings).toEqual([])
    expect(ok.orphans).toEqual([])
    expect(ok.parents[0]!.parentRef).toMatchObject({ namespace: 'infra', name: 'default' })

    const refused = route({
      parents: [
        entry(gwRef('default', { namespace: 'infra' }), [
          cond('Accepted', 'False', 'NotAllowedByListeners', 2)
        ])
      ]
    })
    expect(evaluateRoute(refused, NO_WORLD, OPTIONS).verdict).toBe('failed')
  })
})

describe('evaluateRoute: final (deadline) and non-final', () => {
  const route3 = route({
    generation: 3,
    parentRefs: [gwRef('edge'), gwRef('missing'), gwRef('ok'), gwRef('refused')],
    parents: [
      entry(gwRef('edge'), [
        cond('Accepted', 'Unknown', 'Pending', 3),
        cond('ResolvedRefs', 'True', 'ResolvedRefs', 2)
      ]),
      entry(gwRef('ok'), healthy(3)),
      entry(gwRef('refused'), [cond('Accepted', 'False', 'NotAllowedByListeners', 3)])
    ]
  })

  it('keeps waiting findings as warnings before the deadline', () => {
    const v = evaluateRoute(route3, NO_WORLD, OPTIONS)
    expect(v.parents.map((p) => p.verdict)).toEqual(['pending', 'pending', 'ready', 'failed'])
    expect(v.parents[0]!.findings.map((f) => [f.reason, f.severity])).toEqual([
      ['ConditionUnknown', 'warning'],
      ['StaleStatus', 'warning']
    ])
    expect(v.parents[3]!.findings.map((f) => [f.reason, f.severity])).toEqual([
      ['NotAllowedByListeners', 'error'],
      ['ConditionMissing', 'warning']
    ])
  })

  it('turns every pending parent into failed with error findings at the deadline', () => {
    const v = evaluateRoute(route3, NO_WORLD, FINAL)
    expect(v.verdict).toBe('failed')
    expect(v.parents.map((p) => p.verdict)).toEqual(['failed', 'failed', 'ready', 'failed'])
    expect(v.parents[0]!.findings.map((f) => [f.reason, f.severity])).toEqual([
      ['ConditionUnknown', 'error'],
      ['StaleStatus', 'error']
    ])
    expect(v.parents[1]!.findings).toEqual([{ reason: 'NoStatus', severity: 'error' }])
  })

  it('leaves a Dropped Rule warning a warning at the deadline', () => {
    const { routes } = loadDump('partially-invalid.yaml')
    const v = evaluateRoute(
      routes.find((r) => r.metadata.name === 'dropped')!,
      NO_WORLD,
      FINAL
    )
    expect(v.verdict).toBe('ready')
    expect(v.parents[0]!.findings[0]!.severity).toBe('warning')
  })
})

describe('evaluateRoute: every kind and API version', () => {
  const cases = [
    ['HTTPRoute', 'v1'],
    ['HTTPRoute', 'v1beta1'],
    ['GRPCRoute', 'v1'],
    ['GRPCRoute', 'v1alpha2'],
    ['TLSRoute', 'v1'],
    ['TLSRoute', 'v1alpha3'],
    ['TLSRoute', 'v1alpha2'],
    ['TCPRoute', 'v1'],
    ['TCPRoute', 'v1alpha2'],
    ['UDPRoute', 'v1'],
    ['UDPRoute', 'v1alpha2']
  ] as const

  it.each(cases)('%s %s evaluates like any other', (kind, version) => {
    const make = (parents: Record<string, unknown>[]) =>
      route({
        kind,
        apiVersion: `gateway.networking.k8s.io/${version}`,
        parentRefs: [gwRef('edge', { sectionName: 'l4' })],
        parents
      })
    const scoped = gwRef('edge', { sectionName: 'l4' })
    expect(evaluateRoute(make([entry(scoped, healthy(2))]), ENVOY_WORLD, OPTIONS).verdict).toBe(
      'ready'
    )
    const failed = evaluateRoute(
      make([
        entry(scoped, [
          cond('Accepted', 'True', 'Accepted', 2),
          cond('ResolvedRefs', 'False', 'BackendNotFound', 2)
        ])
      ]),
      ENVOY_WORLD,
      OPTIONS
    )
    expect(failed.verdict).toBe('failed')
    expect(failed.parents[0]!.findings[0]!.reason).toBe('BackendNotFound')
    expect(evaluateRoute(make([entry(scoped, healthy(1))]), ENVOY_WORLD, OPTIONS).verdict).toBe(
      'pending'
    )
  })
})

describe('evaluateRoute: odd shapes', () => {
  it('notes group "core" on a Service parent and still matches it', () => {
    const ref = { group: 'core', kind: 'Service', name: 'api' }
    const v = evaluateRoute(
      route({ parentRefs: [ref], parents: [entry(ref, healthy(2), ISTIO)] }),
      NO_WORLD,
      OPTIONS
    )
    expect(v.verdict).toBe('ready')
    expect(v.notes).toEqual([
      'HTTPRoute shop/web: parentRef Service.core shop/api sets group "core"; Gateway API names the core group (Services) with group ""'
    ])
  })

  it('never throws on garbage and skips what it cannot read', () => {
    const garbage = [
      { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'HTTPRoute', metadata: null },
      { kind: 'HTTPRoute', spec: 'x', status: { parents: 'everything' } },
      {
        kind: 'HTTPRoute',
        metadata: { name: 'x', namespace: 'y', generation: 'two' },
        spec: { parentRefs: [null, 7, { name: 'edge', port: 'eighty' }] },
        status: {
          parents: [
            null,
            { parentRef: 'edge' },
            {
              parentRef: { name: 'edge' },
              controllerName: 5,
              conditions: [{ type: 'Accepted', status: 'maybe' }, null, 'x']
            },
            { parentRef: { name: 'edge' }, conditions: 'none' }
          ]
        }
      },
      null
    ]
    for (const g of garbage) {
      expect(() => evaluateRoute(g as never, NO_WORLD, OPTIONS)).not.toThrow()
    }
    const v = evaluateRoute(garbage[2] as never, NO_WORLD, OPTIONS)
    // the only entry with a readable Accepted... has none: nothing is judged
    expect(v.parents[0]!.findings[0]!.reason).toBe('NoStatus')
    expect(v.parents[0]!.otherControllers).toEqual([
      { controllerName: '', conditions: [] },
      { controllerName: '', conditions: [] }
    ])
  })
})

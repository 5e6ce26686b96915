import { describe, expect, it } from 'vitest'
import { DEFAULT_CONDITIONS, combineVerdicts, evaluateRoute } from '../../../src/model/evaluate.ts'
import type { OwnerWorld } from '../../../src/model/owner.ts'
import { ownerController } from '../../../src/model/owner.ts'
import { normalizeParentRef } from '../../../src/model/parent-ref.ts'
import type { KubeObject, RouteObject, VerdictOptions, World } from '../../../src/model/types.ts'
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

  it('keeps a False condition without a usable reason as NoReason, never as no finding', () => {
    for (const reason of ['', ' , ']) {
      const r = route({
        parentRefs: [gwRef('edge')],
        parents: [
          entry(gwRef('edge'), [
            cond('Accepted', 'True', 'Accepted', 2),
            cond('ResolvedRefs', 'False', reason, 2)
          ])
        ]
      })
      const v = evaluateRoute(r, ENVOY_WORLD, OPTIONS)
      expect(v.parents[0]!.findings.map((f) => [f.condition, f.reason])).toEqual([
        ['ResolvedRefs', 'NoReason']
      ])
    }
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

  // Fall Back is the old spec still serving (Accepted=True); an old Accepted that was False or Unknown
  // serves nothing, so the controller has simply not caught up yet: wait, as for any stale status.
  it.each(['False', 'Unknown'] as const)(
    'calls a fresh PartiallyInvalid beside a stale Accepted=%s stale, not Fall Back',
    (status) => {
      const r = route({
        generation: 5,
        parentRefs: [gwRef('edge')],
        parents: [
          entry(gwRef('edge'), [
            cond('Accepted', status, 'NotAllowedByListeners', 3),
            cond('ResolvedRefs', 'True', 'ResolvedRefs', 5),
            cond('PartiallyInvalid', 'True', 'UnsupportedValue', 5, 'Dropped Rule(s): 1')
          ])
        ]
      })
      const v = evaluateRoute(r, NO_WORLD, OPTIONS)
      expect(v.verdict).toBe('pending')
      expect(v.parents[0]!.findings.map((f) => [f.condition, f.reason])).toEqual([
        ['Accepted', 'StaleStatus'],
        ['PartiallyInvalid', 'UnsupportedValue']
      ])
    }
  )

  it('does not call an entry without Accepted Fall Back', () => {
    const r = route({
      generation: 5,
      parentRefs: [gwRef('edge')],
      parents: [
        entry(gwRef('edge'), [
          cond('ResolvedRefs', 'True', 'ResolvedRefs', 5),
          cond('PartiallyInvalid', 'True', 'UnsupportedValue', 5)
        ])
      ]
    })
    const v = evaluateRoute(r, ENVOY_WORLD, OPTIONS)
    expect(v.verdict).toBe('pending')
    expect(v.parents[0]!.findings.map((f) => f.reason)).toEqual([
      'ConditionMissing',
      'UnsupportedValue'
    ])
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

  const DEFAULT_WORLD = {
    ...gatewayWorld(
      [
        { namespace: 'infra', name: 'default', className: 'eg' },
        { namespace: 'infra', name: 'plain', className: 'eg' }
      ],
      { eg: ENVOY }
    )
  }
  DEFAULT_WORLD.gateways[0]!.spec = { gatewayClassName: 'eg', defaultScope: 'All' }
  const optedIn = (parents: Record<string, unknown>[]): RouteObject => {
    const r = route({ parents })
    r.spec = { useDefaultGateways: 'All' }
    return r
  }

  it("judges a default Gateway's entry like any other when the Route opts in", () => {
    const ok = evaluateRoute(
      optedIn([entry(gwRef('default', { namespace: 'infra' }), healthy(2))]),
      DEFAULT_WORLD,
      OPTIONS
    )
    expect(ok.verdict).toBe('ready')
    expect(ok.findings).toEqual([])
    expect(ok.orphans).toEqual([])
    expect(ok.parents[0]!.parentRef).toMatchObject({ namespace: 'infra', name: 'default' })

    const refused = optedIn([
      entry(gwRef('default', { namespace: 'infra' }), [
        cond('Accepted', 'False', 'NotAllowedByListeners', 2)
      ])
    ])
    expect(evaluateRoute(refused, DEFAULT_WORLD, OPTIONS).verdict).toBe('failed')
  })

  it('keeps NoParentRefs when the entry is a leftover: no opt-in, no default scope, or an unknown Gateway', () => {
    const leftovers: [string, RouteObject, Pick<World, 'gatewayClasses' | 'gateways'>][] = [
      [
        'Route does not opt in',
        route({ parents: [entry(gwRef('default', { namespace: 'infra' }), healthy(2))] }),
        DEFAULT_WORLD
      ],
      [
        'Gateway has no defaultScope',
        optedIn([entry(gwRef('plain', { namespace: 'infra' }), healthy(2))]),
        DEFAULT_WORLD
      ],
      [
        'Gateway cannot be read',
        optedIn([entry(gwRef('default', { namespace: 'infra' }), healthy(2))]),
        NO_WORLD
      ]
    ]
    for (const [why, r, world] of leftovers) {
      const v = evaluateRoute(r, world, OPTIONS)
      expect(v.verdict, why).toBe('failed')
      expect(v.findings, why).toEqual([{ reason: 'NoParentRefs', severity: 'error' }])
      expect(v.parents, why).toEqual([])
      expect(v.orphans, why).toHaveLength(1)
    }
    const none = route({ parents: [entry(gwRef('default', { namespace: 'infra' }), healthy(2))] })
    none.spec = { useDefaultGateways: 'None' }
    expect(evaluateRoute(none, DEFAULT_WORLD, OPTIONS).verdict).toBe('failed')
  })

  it('judges only the default Gateway among a default and a leftover entry', () => {
    const v = evaluateRoute(
      optedIn([
        entry(gwRef('default', { namespace: 'infra' }), [
          cond('Accepted', 'Unknown', 'Pending', 2)
        ]),
        entry(gwRef('plain', { namespace: 'infra' }), healthy(2))
      ]),
      DEFAULT_WORLD,
      OPTIONS
    )
    expect(v.verdict).toBe('pending')
    expect(v.parents.map((p) => p.parentRef.name)).toEqual(['default'])
    expect(v.orphans).toHaveLength(1)
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

describe('evaluateRoute: the core group spelled "core" (Linkerd)', () => {
  const svc = { group: '', kind: 'Service', name: 'api', port: 8080 }
  const svcCore = { ...svc, group: 'core', namespace: 'shop' }

  it('matches a status entry written with group core to a spec parentRef with group ""', () => {
    const v = evaluateRoute(
      route({ parentRefs: [svc], parents: [entry(svcCore, healthy(2), LINKERD)] }),
      NO_WORLD,
      OPTIONS
    )
    expect(v.verdict).toBe('ready')
    expect(v.orphans).toEqual([])
    expect(v.parents[0]).toMatchObject({ verdict: 'ready', controllerName: LINKERD })
    expect(v.parents[0]!.parentRef.group).toBe('')
  })

  it('matches a spec parentRef with group core to an entry with group "", and says nothing of it', () => {
    const v = evaluateRoute(
      route({ parentRefs: [svcCore], parents: [entry(svc, healthy(2), ISTIO)] }),
      NO_WORLD,
      OPTIONS
    )
    expect(v.verdict).toBe('ready')
    expect(v.notes).toEqual([])
  })

  it('still reads an omitted group as gateway.networking.k8s.io, for a Service too', () => {
    const omitted = { kind: 'Service', name: 'api', port: 8080 }
    const v = evaluateRoute(
      route({ parentRefs: [omitted], parents: [entry(svcCore, healthy(2), LINKERD)] }),
      NO_WORLD,
      OPTIONS
    )
    expect(v.parents[0]!.parentRef.group).toBe('gateway.networking.k8s.io')
    expect(v.parents[0]!.findings[0]!.reason).toBe('NoStatus')
    expect(v.orphans).toHaveLength(1)
  })
})

describe('evaluateRoute: a port-only parentRef whose entry omits the port (NGINX Gateway Fabric)', () => {
  const NGF = 'gateway.nginx.org/nginx-gateway-controller'
  const NGF_WORLD = gatewayWorld([{ namespace: 'shop', name: 'edge', className: 'nginx' }], {
    nginx: NGF
  })
  // NGF writes back neither port nor group and kind
  const bare = { name: 'edge', namespace: 'shop' }

  it("takes the owner's only entry for that Gateway, with a note", () => {
    const v = evaluateRoute(
      route({
        parentRefs: [gwRef('edge', { port: 443 })],
        parents: [entry(bare, healthy(2), NGF)]
      }),
      NGF_WORLD,
      OPTIONS
    )
    expect(v.verdict).toBe('ready')
    expect(v.orphans).toEqual([])
    expect(v.parents[0]).toMatchObject({ verdict: 'ready', controllerName: NGF })
    expect(v.notes).toEqual([
      `HTTPRoute shop/web: ${NGF} wrote its entry for parentRef edge:443 without the port; it is the only entry for that parent and no other parentRef names it, so it was judged as this parentRef's`
    ])
    const failed = evaluateRoute(
      route({
        parentRefs: [gwRef('edge', { port: 443 })],
        parents: [entry(bare, [cond('Accepted', 'False', 'NotAllowedByListeners', 2)], NGF)]
      }),
      NGF_WORLD,
      OPTIONS
    )
    expect(failed.verdict).toBe('failed')
  })

  it('never guesses: two parentRefs to that Gateway, a sectionName, a second owner entry, another controller', () => {
    const cases: [string, Record<string, unknown>[], Record<string, unknown>[]][] = [
      [
        'two refs could claim it',
        [gwRef('edge', { port: 80 }), gwRef('edge', { port: 443 })],
        [entry(bare, healthy(2), NGF)]
      ],
      [
        'ref sets a sectionName too',
        [gwRef('edge', { port: 443, sectionName: 'https' })],
        [entry(bare, healthy(2), NGF)]
      ],
      [
        'the owner wrote two entries for the Gateway',
        [gwRef('edge', { port: 443 })],
        [entry(bare, healthy(2), NGF), entry(gwRef('edge', { port: 80 }), healthy(2), NGF)]
      ],
      [
        'another controller wrote it',
        [gwRef('edge', { port: 443 })],
        [entry(bare, healthy(2), ENVOY)]
      ]
    ]
    for (const [why, parentRefs, parents] of cases) {
      const v = evaluateRoute(route({ parentRefs, parents }), NGF_WORLD, OPTIONS)
      expect(v.verdict, why).toBe('pending')
      expect(
        v.parents.every((p) => p.findings[0]?.reason === 'NoStatus'),
        why
      ).toBe(true)
      expect(v.notes, why).toEqual([])
    }
  })
})

describe('evaluateRoute: a Route being deleted', () => {
  it('fails Terminating whatever its status says, naming the finalizers', () => {
    const r = route({ parentRefs: [gwRef('edge')], parents: [entry(gwRef('edge'), healthy(2))] })
    r.metadata.deletionTimestamp = '2026-11-20T11:00:00Z'
    r.metadata.finalizers = ['example.com/cleanup']
    const v = evaluateRoute(r, ENVOY_WORLD, OPTIONS)
    expect(v.verdict).toBe('failed')
    expect(v.parents[0]!.verdict).toBe('ready')
    expect(v.findings).toEqual([
      {
        reason: 'Terminating',
        severity: 'error',
        deletionTimestamp: '2026-11-20T11:00:00Z',
        finalizers: ['example.com/cleanup']
      }
    ])
  })

  it('is failed before the deadline too, with or without finalizers', () => {
    const r = route({ parentRefs: [gwRef('edge')], parents: [] })
    r.metadata.deletionTimestamp = '2026-11-20T11:00:00Z'
    const v = evaluateRoute(r, ENVOY_WORLD, OPTIONS)
    expect(v.verdict).toBe('failed')
    expect(v.findings[0]).toMatchObject({ reason: 'Terminating', finalizers: [] })
  })
})

describe('evaluateRoute: ListenerSet parents', () => {
  const CONTOUR = 'projectcontour.io/gateway-controller'
  const listenerSet = (
    apiVersion: string,
    kind: string,
    parentRef: Record<string, unknown>
  ): KubeObject => ({
    apiVersion,
    kind,
    metadata: { name: 'team', namespace: 'shop' },
    spec: { parentRef, listeners: [{ name: 'extra', port: 8443, protocol: 'HTTP' }] }
  })
  const world = (sets: KubeObject[]): OwnerWorld => ({
    ...gatewayWorld([{ namespace: 'infra', name: 'edge', className: 'eg' }], { eg: ENVOY }),
    listenerSets: sets
  })
  const cases = [
    ['ListenerSet', 'gateway.networking.k8s.io', 'gateway.networking.k8s.io/v1'],
    ['XListenerSet', 'gateway.networking.x-k8s.io', 'gateway.networking.x-k8s.io/v1alpha1']
  ] as const

  it.each(cases)(
    "%s: judges only the parent Gateway's controller's entries",
    (kind, group, apiVersion) => {
      const ref = { group, kind, name: 'team', sectionName: 'extra' }
      const r = route({
        parentRefs: [ref],
        parents: [
          entry(ref, [cond('Accepted', 'False', 'NotAllowedByListeners', 2)], ENVOY),
          entry(ref, healthy(2), CONTOUR)
        ]
      })
      const sets = [listenerSet(apiVersion, kind, { name: 'edge', namespace: 'infra' })]
      const v = evaluateRoute(r, world(sets), OPTIONS)
      expect(v.verdict).toBe('failed')
      expect(v.parents[0]!.controllerName).toBe(ENVOY)
      expect(v.parents[0]!.otherControllers.map((o) => o.controllerName)).toEqual([CONTOUR])
      // without the ListenerSet the owner is unknown: both entries carry Accepted and are judged
      expect(evaluateRoute(r, world([]), OPTIONS).parents[0]!.otherControllers).toEqual([])
    }
  )

  it('does not take a ListenerSet of the other API group, nor one whose parent is not a Gateway', () => {
    const ref = { group: 'gateway.networking.k8s.io', kind: 'ListenerSet', name: 'team' }
    const r = route({ parentRefs: [ref], parents: [entry(ref, healthy(2), CONTOUR)] })
    const xset = listenerSet('gateway.networking.x-k8s.io/v1alpha1', 'XListenerSet', {
      name: 'edge',
      namespace: 'infra'
    })
    expect(ownerController(normalizeParentRef(ref, 'shop'), world([xset]))).toBeUndefined()
    const odd = listenerSet('gateway.networking.k8s.io/v1', 'ListenerSet', {
      kind: 'Service',
      name: 'edge'
    })
    expect(ownerController(normalizeParentRef(ref, 'shop'), world([odd]))).toBeUndefined()
    const same = listenerSet('gateway.networking.k8s.io/v1', 'ListenerSet', { name: 'edge' })
    // the parentRef's namespace defaults to the ListenerSet's (shop), where no Gateway edge is
    expect(ownerController(normalizeParentRef(ref, 'shop'), world([same]))).toBeUndefined()
    expect(evaluateRoute(r, world([same]), OPTIONS).verdict).toBe('ready')
  })
})

describe('evaluateRoute: odd shapes', () => {
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

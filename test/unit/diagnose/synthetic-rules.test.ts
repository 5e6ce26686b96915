// Rules of route-gate's own reasons (StaleStatus, ConditionMissing, ConditionUnknown, NoParentRefs):
// how far behind the status is, whether the controller is shown to run, what a gap in the conditions
// points at, and which Gateway a Route without parentRefs should name.
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { explainRoute } from '../../../src/diagnose/explain.ts'
import type { ExplainOptions } from '../../../src/diagnose/explain.ts'
import { reasonEntry } from '../../../src/diagnose/reasons.ts'
import type { Condition, Finding, Problem, RouteObject, World } from '../../../src/model/types.ts'
import {
  MODES,
  baseWorld,
  gateway,
  ref,
  route,
  routeVerdict,
  severityIn,
  verdictIn
} from '../../fixtures/diagnose/world.ts'
import type { Mode, ParentInput } from '../../fixtures/diagnose/world.ts'
import { fixText } from '../../helpers/fixes.ts'

const CONTOUR = 'projectcontour.io/gateway-controller'
const EG = 'gateway.envoyproxy.io/gatewayclass-controller'
const CONTOUR_LABEL = `Contour (${CONTOUR})`
const LAGGING = `${CONTOUR_LABEL} has not processed generation 5 of this Route: it is lagging or stopped.`

const contourWorld = (): World => baseWorld('contour', CONTOUR)

function stale(mode: Mode, extra: Partial<Finding> = {}): Finding {
  return {
    condition: 'Accepted',
    reason: 'StaleStatus',
    severity: severityIn(mode),
    controllerName: CONTOUR,
    generation: 5,
    observedGeneration: 3,
    lastTransitionTime: '2025-03-01T10:00:00Z',
    ...extra
  }
}

const current = (type: string, at?: string, observedGeneration = 5): Condition => ({
  type,
  status: 'True',
  reason: type,
  observedGeneration,
  ...(at ? { lastTransitionTime: at } : {}),
  fresh: observedGeneration >= 5
})

/** The stale parent web, plus the other parents the test gives. */
function staleProblem(
  mode: Mode,
  finding: Finding,
  others: ParentInput[] = [],
  options: ExplainOptions = {},
  parentControllerName: string | null = CONTOUR
): Problem | undefined {
  const verdict = routeVerdict(route({}), [
    {
      parentRef: ref('web'),
      finding,
      controllerName: parentControllerName,
      verdict: verdictIn(mode)
    },
    ...others
  ])
  return explainRoute(verdict, contourWorld(), options).parents[0]?.problems[0]
}

/** Another Route the run holds, with one status entry per controller given. */
function otherRoute(
  kind: RouteObject['kind'],
  namespace: string,
  name: string,
  generation: number | undefined,
  entries: { controllerName: string; conditions: Record<string, unknown>[] }[]
): RouteObject {
  return {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind,
    metadata: {
      name,
      namespace,
      ...(generation === undefined ? {} : { generation })
    },
    spec: {},
    status: {
      parents: entries.map((e) => ({
        parentRef: { name: 'web', namespace: 'infra' },
        controllerName: e.controllerName,
        conditions: e.conditions
      }))
    }
  }
}

const written = (observedGeneration: number | undefined, at?: string) => ({
  type: 'Accepted',
  status: 'True',
  reason: 'Accepted',
  ...(observedGeneration === undefined ? {} : { observedGeneration }),
  ...(at ? { lastTransitionTime: at } : {})
})

describe.each(MODES)('StaleStatus facts (%s mode)', (mode) => {
  it('says "1 generation" for a single generation behind', () => {
    const p = staleProblem(mode, stale(mode, { observedGeneration: 4 }))
    expect(p?.title).toBe('Status is 1 generation behind the Route (observed 4, current 5)')
    expect(p?.evidence?.[0]).toBe(
      'Accepted was written for generation 4; the Route is at generation 5 (1 generation behind).'
    )
  })

  it('names the controller of the parent when the finding carries none', () => {
    const p = staleProblem(mode, stale(mode, { controllerName: undefined }))
    expect(p?.remediation).toBe(
      `${LAGGING} Check that its pods run and read their logs for this Route; a Route it cannot parse can also stall it.`
    )
  })

  it('speaks of "the status" when no condition is named', () => {
    const p = staleProblem(mode, stale(mode, { condition: undefined }))
    expect(p?.evidence?.[0]).toBe(
      'The status was written for generation 3; the Route is at generation 5 (2 generations behind).'
    )
    expect(p?.evidence?.[1]).toBe('The status last changed at 2025-03-01T10:00:00Z.')
  })

  it('counts no generations when the observed generation is unknown', () => {
    const p = staleProblem(mode, stale(mode, { observedGeneration: undefined }))
    expect(p?.title).toBe('The status describes an older generation of the Route')
    expect(p?.evidence?.join(' ')).not.toMatch(/NaN|undefined|behind\)/)
    expect(p?.remediation).toContain('has not processed generation 5 of this Route')
  })

  it('speaks of the current spec when the generation is unknown', () => {
    const p = staleProblem(mode, stale(mode, { generation: undefined }))
    expect(p?.title).toBe('The status describes an older generation of the Route')
    expect(p?.evidence?.join(' ')).not.toMatch(/NaN|undefined/)
    expect(p?.remediation).toContain(
      `${CONTOUR_LABEL} has not processed the current spec of this Route`
    )
  })

  it('gives no transition time or age when the condition carries none, or an unreadable one', () => {
    for (const lastTransitionTime of [undefined, 'yesterday']) {
      const p = staleProblem(mode, stale(mode, { lastTransitionTime }), [], {
        now: new Date('2025-03-01T10:42:00Z')
      })
      expect(p?.evidence).toEqual([
        'Accepted was written for generation 3; the Route is at generation 5 (2 generations behind).'
      ])
    }
  })
})

describe.each(MODES)('StaleStatus: is the controller running? (%s mode)', (mode) => {
  const running = (what: string) =>
    `${CONTOUR_LABEL} is running (it wrote current status for ${what}) but has not processed generation 5 of this Route`

  it('takes current status on another parent as proof when the stale condition has no time', () => {
    const p = staleProblem(mode, stale(mode, { lastTransitionTime: undefined }), [
      {
        parentRef: ref('internal'),
        controllerName: CONTOUR,
        conditions: [current('Accepted', '2025-01-01T00:00:00Z')]
      }
    ])
    expect(p?.remediation).toContain(running('parent infra/internal of this Route'))
  })

  it('takes one condition changed since the stale one as proof, even if others are older', () => {
    const p = staleProblem(mode, stale(mode), [
      {
        parentRef: ref('internal'),
        controllerName: CONTOUR,
        conditions: [
          current('Accepted', '2025-02-01T00:00:00Z'),
          current('ResolvedRefs', '2025-03-01T10:05:00Z')
        ]
      }
    ])
    expect(p?.remediation).toContain(running('parent infra/internal of this Route'))
  })

  it('takes status written in the same second as the stale one as proof', () => {
    const p = staleProblem(mode, stale(mode), [
      {
        parentRef: ref('internal'),
        controllerName: CONTOUR,
        conditions: [current('Accepted', '2025-03-01T10:00:00Z')]
      }
    ])
    expect(p?.remediation).toContain(running('parent infra/internal of this Route'))
  })

  it.each<[string, ParentInput]>([
    [
      'another controller wrote it',
      {
        parentRef: ref('internal'),
        controllerName: EG,
        conditions: [current('Accepted', '2025-03-01T10:30:00Z')]
      }
    ],
    [
      'it carries no observedGeneration',
      {
        parentRef: ref('internal'),
        controllerName: CONTOUR,
        conditions: [
          { type: 'Accepted', status: 'True', lastTransitionTime: '2025-03-01T10:30:00Z' }
        ]
      }
    ],
    [
      'it has no conditions',
      { parentRef: ref('internal'), controllerName: CONTOUR, conditions: [] }
    ],
    [
      'it is stale too',
      {
        parentRef: ref('internal'),
        controllerName: CONTOUR,
        conditions: [current('Accepted', '2025-03-01T10:30:00Z', 3)]
      }
    ],
    [
      'only one of its conditions is current',
      {
        parentRef: ref('internal'),
        controllerName: CONTOUR,
        conditions: [
          current('Accepted', '2025-03-01T10:30:00Z'),
          current('ResolvedRefs', '2025-03-01T10:30:00Z', 4)
        ]
      }
    ]
  ])('takes no proof from another parent when %s', (_, other) => {
    // no transition time on the stale condition: any time of the other parent would do
    const p = staleProblem(mode, stale(mode, { lastTransitionTime: undefined }), [other])
    expect(p?.remediation).toContain(LAGGING)
    expect(p?.evidence?.join(' ')).not.toContain('wrote status for the current spec')
  })

  it('takes a Route of another kind or namespace with the same name as proof', () => {
    for (const [kind, namespace] of [
      ['GRPCRoute', 'shop'],
      ['HTTPRoute', 'checkout']
    ] as const) {
      const other = otherRoute(kind, namespace, 'storefront', 7, [
        { controllerName: CONTOUR, conditions: [written(7, '2025-03-01T11:00:00Z')] }
      ])
      const p = staleProblem(mode, stale(mode), [], { routes: [other] })
      expect(p?.remediation).toContain(running(`${kind} ${namespace}/storefront`))
    }
  })

  it("does not take the Route's own status as proof", () => {
    const self = otherRoute('HTTPRoute', 'shop', 'storefront', 5, [
      { controllerName: CONTOUR, conditions: [written(5, '2025-03-01T11:00:00Z')] }
    ])
    const p = staleProblem(mode, stale(mode), [], { routes: [self] })
    expect(p?.remediation).toContain(LAGGING)
  })

  it('does not take its own dump copy without metadata.namespace as proof, nor print "undefined"', () => {
    const self = otherRoute('HTTPRoute', 'shop', 'storefront', 5, [
      { controllerName: CONTOUR, conditions: [written(5, '2025-03-01T11:00:00Z')] }
    ])
    const { namespace: _dropped, ...metadata } = self.metadata
    const unnamespaced = { ...self, metadata } as unknown as RouteObject
    const p = staleProblem(mode, stale(mode), [], { routes: [unnamespaced] })
    expect(p?.remediation).toContain(LAGGING)
    expect(JSON.stringify(p)).not.toMatch(/undefined|null|NaN/)
  })

  it("takes another Route as proof when one of its entries is the controller's", () => {
    const other = otherRoute('HTTPRoute', 'shop', 'other', 7, [
      { controllerName: EG, conditions: [written(6, '2025-03-01T11:00:00Z')] },
      { controllerName: CONTOUR, conditions: [written(7, '2025-03-01T11:00:00Z')] }
    ])
    const p = staleProblem(mode, stale(mode), [], { routes: [other] })
    expect(p?.remediation).toContain(running('HTTPRoute shop/other'))
  })

  it.each<[string, RouteObject]>([
    [
      'another controller wrote it',
      otherRoute('HTTPRoute', 'shop', 'other', 7, [
        { controllerName: EG, conditions: [written(7, '2025-03-01T11:00:00Z')] }
      ])
    ],
    [
      'its entry has no conditions',
      otherRoute('HTTPRoute', 'shop', 'other', 7, [{ controllerName: CONTOUR, conditions: [] }])
    ],
    [
      'one of its conditions is stale',
      otherRoute('HTTPRoute', 'shop', 'other', 7, [
        {
          controllerName: CONTOUR,
          conditions: [
            written(7, '2025-03-01T11:00:00Z'),
            { ...written(6, '2025-03-01T11:00:00Z'), type: 'ResolvedRefs' }
          ]
        }
      ])
    ],
    [
      'its status is stale too',
      otherRoute('HTTPRoute', 'shop', 'other', 7, [
        { controllerName: CONTOUR, conditions: [written(6, '2025-03-01T11:00:00Z')] }
      ])
    ],
    [
      'it has no generation to compare with',
      otherRoute('HTTPRoute', 'shop', 'other', undefined, [
        { controllerName: CONTOUR, conditions: [written(undefined, '2025-03-01T11:00:00Z')] }
      ])
    ]
  ])('takes no proof from another Route when %s', (_, other) => {
    const p = staleProblem(mode, stale(mode, { lastTransitionTime: undefined }), [], {
      routes: [other]
    })
    expect(p?.remediation).toContain(LAGGING)
  })
})

describe.each(MODES)('ConditionMissing and ConditionUnknown (%s mode)', (mode) => {
  const KONG = 'konghq.com/kic-gateway-controller'
  const KONG_LABEL = `Kong Ingress Controller (${KONG})`
  const gap = (finding: Finding, conditions: Condition[]): Problem | undefined =>
    explainRoute(
      routeVerdict(route({}), [
        {
          parentRef: ref('web'),
          finding,
          conditions,
          controllerName: KONG,
          verdict: verdictIn(mode)
        }
      ]),
      baseWorld('kong', KONG)
    ).parents[0]?.problems[0]

  it('says the entry holds no conditions at all', () => {
    const p = gap(
      { condition: 'Accepted', reason: 'ConditionMissing', severity: severityIn(mode) },
      []
    )
    expect(p?.evidence?.[0]).toBe(
      `${KONG_LABEL} wrote an entry for this parent with no conditions.`
    )
    expect(p?.remediation).toContain('Gateway API requires every implementation to write Accepted')
  })

  it('offers to drop a condition that is not required by the spec from the conditions input', () => {
    const p = gap(
      { condition: 'Programmed', reason: 'ConditionMissing', severity: severityIn(mode) },
      [{ type: 'Accepted', status: 'True', reason: 'Accepted' }]
    )
    expect(p?.title).toBe(`${KONG_LABEL} wrote no Programmed condition`)
    expect(p?.remediation).toBe(
      `${KONG_LABEL} does not write Programmed on this HTTPRoute: check whether it supports this condition for HTTPRoute, or remove Programmed from the conditions input.`
    )
  })

  it('points at a False condition without a message', () => {
    const p = gap(
      { condition: 'Accepted', reason: 'ConditionMissing', severity: severityIn(mode) },
      [{ type: 'Reconciled', status: 'False', reason: 'SyncFailed' }]
    )
    expect(p?.remediation).toBe(
      `Fix what Reconciled=False says; ${KONG_LABEL} writes Accepted once it has processed the HTTPRoute.`
    )
  })

  it('keeps the catalog advice for an Unknown condition with nothing False beside it', () => {
    const p = gap(
      { condition: 'ResolvedRefs', reason: 'ConditionUnknown', severity: severityIn(mode) },
      [
        { type: 'Accepted', status: 'True', reason: 'Accepted' },
        { type: 'ResolvedRefs', status: 'Unknown' }
      ]
    )
    expect(p?.title).toBe(`ResolvedRefs is Unknown: ${KONG_LABEL} has not decided yet`)
    expect(p?.remediation).toBe(reasonEntry('ConditionUnknown')?.remediation)
    expect(p?.remediation).not.toContain('requires every implementation')
  })

  it('points an Unknown condition at the False condition that holds it', () => {
    const p = gap(
      {
        condition: 'ResolvedRefs',
        reason: 'ConditionUnknown',
        severity: severityIn(mode),
        conditionReason: 'Pending'
      },
      [
        {
          type: 'Reconciled',
          status: 'False',
          reason: 'SyncFailed',
          message: 'plugin x\nnot found'
        },
        { type: 'ResolvedRefs', status: 'Unknown', reason: 'Pending' }
      ]
    )
    expect(p?.remediation).toBe(
      `Fix what Reconciled=False says ("plugin x not found"); ${KONG_LABEL} decides ResolvedRefs once it has processed the HTTPRoute.`
    )
    expect(p?.evidence?.[0]).toBe(
      `${KONG_LABEL} reports Reconciled=False (SyncFailed): plugin x not found.`
    )
  })

  it('does not repeat the condition it is about as the False one behind it (Accepted=False Pending)', () => {
    const p = gap({ condition: 'Accepted', reason: 'Pending', severity: severityIn(mode) }, [
      {
        type: 'Accepted',
        status: 'False',
        reason: 'Pending',
        message: 'waiting for the data plane'
      }
    ])
    expect(p?.evidence).toEqual([
      `${KONG_LABEL} wrote: Accepted=False (Pending): waiting for the data plane.`
    ])
    expect(p?.title).not.toContain('wrote no')
  })
})

describe.each(MODES)('NoParentRefs (%s mode)', (mode) => {
  const noParentRefs = (world: World): Problem | undefined =>
    explainRoute(
      routeVerdict(route({}), [], {
        verdict: 'failed',
        findings: [{ reason: 'NoParentRefs', severity: severityIn(mode) }]
      }),
      world
    ).problems?.[0]

  it("prefers the Gateways of the Route's own namespace", () => {
    const world = baseWorld()
    world.gateways.push(gateway('shop', 'shop-edge', 'istio', []))
    const p = noParentRefs(world)
    expect(p?.evidence).toEqual(['Gateways that exist: shop/shop-edge.'])
    expect(p?.remediation).toBe(
      'Add spec.parentRefs naming the Gateway that should serve the Route, e.g. shop/shop-edge.'
    )
    // several Gateways: which one should serve the Route is the author's, so no object is offered
    expect(fixText(p)).toBeUndefined()
  })

  it('with one Gateway in the source, the Route as it should read: that Gateway its only parent', () => {
    const world = { ...baseWorld(), gateways: [gateway('shop', 'shop-edge', 'istio', [])] }
    const fix = noParentRefs(world)?.fixes?.[0]
    expect(fix).toMatchObject({
      action: 'patch',
      target: { kind: 'HTTPRoute', namespace: 'shop', name: route({}).metadata.name }
    })
    expect(fix?.object?.spec).toMatchObject({
      parentRefs: [{ name: 'shop-edge', namespace: 'shop' }]
    })
    expect(parse(fixText(noParentRefs(world)) ?? '')).toEqual(fix?.object)
  })

  it('names at most five Gateways', () => {
    const world = baseWorld()
    world.gateways = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((n) =>
      gateway('infra', n, 'istio', [])
    )
    expect(noParentRefs(world)?.evidence).toEqual([
      'Gateways that exist: infra/a, infra/b, infra/c, infra/d and infra/e.'
    ])
  })

  it('says that no Gateway exists, and suggests no fix naming one', () => {
    const p = noParentRefs({ ...baseWorld(), gateways: [] })
    expect(p?.evidence).toEqual(['No Gateway exists in the source.'])
    expect(fixText(p)).toBeUndefined()
    expect(p?.remediation).toBe(reasonEntry('NoParentRefs')?.remediation)
  })

  it('writes a fix that stays valid YAML for a Gateway whose name YAML reads as a number', () => {
    const world = baseWorld()
    world.gateways = [gateway('2024', '1e3', 'istio', [])]
    const spec = (parse(fixText(noParentRefs(world)) ?? '') as { spec: unknown }).spec
    expect(spec).toMatchObject({ parentRefs: [{ name: '1e3', namespace: '2024' }] })
  })
})

describe.each(MODES)('one problem, said once (%s mode)', (mode) => {
  it('two stale conditions on one parent: one problem naming both, each evidence line once', () => {
    const verdict = routeVerdict(route({}), [
      {
        parentRef: ref('web'),
        finding: [stale(mode), stale(mode, { condition: 'ResolvedRefs' })],
        controllerName: CONTOUR,
        verdict: verdictIn(mode)
      }
    ])
    const problems = explainRoute(verdict, contourWorld()).parents[0]?.problems ?? []
    expect(problems).toHaveLength(1)
    expect(problems[0]?.title).toBe(
      'Status is 2 generations behind the Route (observed 3, current 5) (Accepted and ResolvedRefs)'
    )
    const evidence = problems[0]?.evidence ?? []
    expect(evidence.some((e) => e.startsWith('Accepted was written for generation 3'))).toBe(true)
    expect(evidence.some((e) => e.startsWith('ResolvedRefs was written for generation 3'))).toBe(
      true
    )
    expect(new Set(evidence).size).toBe(evidence.length)
  })
})

// Self-calibration: existing Routes with status, predicted from spec alone and compared with what their
// controllers wrote; a reason a controller disagrees on becomes unknown for that controller.
import { describe, expect, it } from 'vitest'
import {
  CONTOUR,
  EDGE,
  ENVOY,
  baseCluster,
  condition,
  gateway,
  gatewayClass,
  httpRoute,
  onlyParent,
  run
} from './fixtures.ts'
import { expectValidReport } from '../../helpers/schema.ts'

function written(
  controllerName: string,
  accepted: [string, string],
  resolved: [string, string] = ['True', 'ResolvedRefs'],
  parentRef: unknown = EDGE,
  message = ''
) {
  return {
    parents: [
      {
        parentRef,
        controllerName,
        conditions: [
          { type: 'Accepted', status: accepted[0], reason: accepted[1], observedGeneration: 1 },
          {
            type: 'ResolvedRefs',
            status: resolved[0],
            reason: resolved[1],
            message,
            observedGeneration: 1
          }
        ]
      }
    ]
  }
}

describe('predict: self-calibration', () => {
  it('counts, per controller, the existing Routes whose written verdict the prediction matches', () => {
    const cluster = [
      ...baseCluster(),
      httpRoute('app', 'good', { parentRefs: [EDGE] }, written(ENVOY, ['True', 'Accepted'])),
      httpRoute(
        'app',
        'broken',
        { parentRefs: [EDGE], backendRefs: [{ name: 'gone', port: 80 }] },
        written(ENVOY, ['True', 'Accepted'], ['False', 'BackendNotFound'])
      ),
      // pending status is not compared
      httpRoute('app', 'pending', { parentRefs: [EDGE] }, written(ENVOY, ['Unknown', 'Pending']))
    ]
    const report = run(cluster, [httpRoute('app', 'shop', { parentRefs: [EDGE] })])
    expect(report.prediction.calibration).toEqual([
      { controllerName: ENVOY, agrees: 2, of: 2, disagreements: [], distrusted: [] }
    ])
    expectValidReport(report)
  })

  it('a reason the controller disagreed on becomes unknown for that controller, naming the disagreement', () => {
    // the controller accepted a Route predict would refuse by hostname (an implementation that is laxer)
    const cluster = [
      gatewayClass('contour', CONTOUR),
      ...baseCluster().filter((o) => o.kind !== 'Gateway'),
      gateway(
        'infra',
        'edge',
        [
          {
            name: 'http',
            hostname: 'a.example.com',
            allowedRoutes: { namespaces: { from: 'All' } }
          }
        ],
        { className: 'contour' }
      ),
      httpRoute(
        'app',
        'lax',
        { parentRefs: [EDGE], hostnames: ['b.example.com'] },
        written(CONTOUR, ['True', 'Accepted'])
      )
    ]
    const report = run(cluster, [
      httpRoute('app', 'shop', { parentRefs: [EDGE], hostnames: ['c.example.com'] })
    ])
    const [calibration] = report.prediction.calibration
    expect(calibration).toMatchObject({
      controllerName: CONTOUR,
      agrees: 0,
      of: 1,
      distrusted: ['NoMatchingListenerHostname']
    })
    expect(calibration?.disagreements[0]).toMatchObject({
      route: 'HTTPRoute app/lax',
      predicted: 'Accepted=False NoMatchingListenerHostname',
      written: 'ready'
    })
    expect(onlyParent(report).verdict).toBe('unknown')
    expect(condition(report, 'Accepted')?.status).toBe('Unknown')
    expect(onlyParent(report).why?.join(' ')).toContain('HTTPRoute app/lax')
    expect(report.prediction.unknownReasons.join(' ')).toContain(
      `${CONTOUR} disagreed with predict on NoMatchingListenerHostname`
    )
  })

  it('a disagreement of one controller leaves the reason predicted for another', () => {
    const cluster = [
      ...baseCluster(),
      gatewayClass('contour', CONTOUR),
      gateway(
        'infra',
        'other',
        [
          {
            name: 'http',
            hostname: 'a.example.com',
            allowedRoutes: { namespaces: { from: 'All' } }
          }
        ],
        { className: 'contour' }
      ),
      gateway('infra', 'edge2', [
        { name: 'http', hostname: 'a.example.com', allowedRoutes: { namespaces: { from: 'All' } } }
      ]),
      httpRoute(
        'app',
        'lax',
        { parentRefs: [{ name: 'other', namespace: 'infra' }], hostnames: ['b.example.com'] },
        written(CONTOUR, ['True', 'Accepted'], undefined, { name: 'other', namespace: 'infra' })
      )
    ]
    const report = run(cluster, [
      httpRoute('app', 'shop', {
        parentRefs: [{ name: 'edge2', namespace: 'infra' }],
        hostnames: ['c.example.com']
      })
    ])
    expect(condition(report, 'Accepted')?.reason).toBe('NoMatchingListenerHostname')
    expect(onlyParent(report).verdict).toBe('failed')
  })

  it("Traefik's BackendNotFound for a Service without EndpointSlices is the data plane: not compared, not distrusted", () => {
    const cluster = [
      ...baseCluster(),
      httpRoute(
        'app',
        'idle',
        { parentRefs: [EDGE] },
        written(
          ENVOY,
          ['True', 'Accepted'],
          ['False', 'BackendNotFound'],
          EDGE,
          'Cannot load HTTPBackendRef app/web: endpointslices not found'
        )
      )
    ]
    const report = run(cluster, [
      httpRoute('app', 'shop', { parentRefs: [EDGE], backendRefs: [{ name: 'gone', port: 80 }] })
    ])
    expect(report.prediction.calibration).toEqual([])
    expect(onlyParent(report).verdict).toBe('failed')
  })

  it('status written for an older generation is not compared', () => {
    const stale = written(ENVOY, ['False', 'NoMatchingParent'])
    const route = httpRoute('app', 'old', { parentRefs: [EDGE] }, stale)
    route.metadata.generation = 2
    const report = run([...baseCluster(), route], [])
    expect(report.prediction.calibration).toEqual([])
  })

  it('an existing Route replaced by the manifests is calibrated on the cluster copy and predicted on the new spec', () => {
    const existing = httpRoute(
      'app',
      'shop',
      { parentRefs: [EDGE] },
      written(ENVOY, ['True', 'Accepted'])
    )
    const report = run(
      [...baseCluster(), existing],
      [httpRoute('app', 'shop', { parentRefs: [{ ...EDGE, sectionName: 'nope' }] })]
    )
    expect(report.prediction.calibration[0]).toMatchObject({ agrees: 1, of: 1 })
    expect(report.routes).toHaveLength(1)
    expect(onlyParent(report).verdict).toBe('failed')
  })
})

describe('predict: calibration by feature', () => {
  const contour = () =>
    baseCluster().map((o) => (o.kind === 'GatewayClass' ? gatewayClass('eg', CONTOUR) : o))
  /** An HTTPRoute whose one rule carries `filters`, on a hostname of its own (no Contour conflict). */
  const withFilters = (name: string, filters: unknown[], status?: unknown) => {
    const hostnames = [`${name}.example.com`]
    const route = httpRoute('app', name, { parentRefs: [EDGE], hostnames }, status)
    ;(route.spec as { rules: Record<string, unknown>[] }).rules[0]!.filters = filters
    return route
  }
  const CORS = { type: 'CORS', cors: { allowOrigins: ['https://shop.example.com'] } }
  const REWRITE = { type: 'URLRewrite', urlRewrite: { hostname: 'internal' } }
  const refusedByContour = () =>
    withFilters('cors-old', [CORS], {
      parents: [
        {
          parentRef: EDGE,
          controllerName: CONTOUR,
          conditions: [
            {
              type: 'Accepted',
              status: 'False',
              reason: 'UnsupportedValue',
              message: 'CORS filter is not supported',
              observedGeneration: 1
            },
            { type: 'ResolvedRefs', status: 'True', reason: 'ResolvedRefs', observedGeneration: 1 }
          ]
        }
      ]
    })

  it('a Route using a feature its controller refused on an existing Route is refused the same way', () => {
    const cluster = [...contour(), refusedByContour()]
    const report = run(cluster, [withFilters('cors-new', [CORS])])
    const parent = onlyParent(report)
    expect(parent.verdict).toBe('failed')
    const accepted = parent.conditions?.find((c) => c.type === 'Accepted')
    expect(accepted).toMatchObject({ status: 'False', reason: 'UnsupportedValue' })
    expect(accepted?.message).toContain('on HTTPRoute app/cors-old, which also uses filter CORS')
    expect(accepted?.message).toContain('CORS filter is not supported')
    expectValidReport(report)
    // a Route without the feature is untouched
    expect(
      onlyParent(run(cluster, [httpRoute('app', 'plain', { parentRefs: [EDGE] })])).verdict
    ).toBe('ready')
  })

  it('is no evidence where the controller accepts the feature elsewhere, or the refusal has two suspects', () => {
    const accepted = withFilters('cors-ok', [CORS], written(CONTOUR, ['True', 'Accepted']))
    const elsewhere = run(
      [...contour(), refusedByContour(), accepted],
      [withFilters('cors-new', [CORS])]
    )
    expect(onlyParent(elsewhere).verdict).toBe('ready')

    const twoSuspects = refusedByContour()
    ;(twoSuspects.spec as { rules: Record<string, unknown>[] }).rules[0]!.filters = [CORS, REWRITE]
    const ambiguous = run([...contour(), twoSuspects], [withFilters('cors-new', [CORS])])
    expect(onlyParent(ambiguous).verdict).toBe('ready')
    // once the other suspect is accepted on another Route, the refusal is the feature's
    const rewriteOk = withFilters('rewrite-ok', [REWRITE], written(CONTOUR, ['True', 'Accepted']))
    const decided = run([...contour(), twoSuspects, rewriteOk], [withFilters('cors-new', [CORS])])
    expect(onlyParent(decided).verdict).toBe('failed')
  })

  it('a Route that lost a conflict is no evidence against its filters', () => {
    const lost = refusedByContour()
    const status = lost.status as { parents: { conditions: { reason: string }[] }[] }
    status.parents[0]!.conditions[0]!.reason = 'RuleMatchConflict'
    const report = run([...contour(), lost], [withFilters('cors-new', [CORS])])
    expect(onlyParent(report).conditions?.find((c) => c.type === 'Accepted')?.reason).not.toBe(
      'RuleMatchConflict'
    )
  })
})

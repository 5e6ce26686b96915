// Conflict reasons name the Route that already holds the hostname and match on the same Gateway.
import { describe, expect, it } from 'vitest'
import { explainRoute } from '../../../src/diagnose/explain.ts'
import type { Finding, RouteObject } from '../../../src/model/types.ts'
import {
  MODES,
  baseWorld,
  ref,
  route,
  routeVerdict,
  severityIn,
  verdictIn
} from '../../fixtures/diagnose/world.ts'

const CONTOUR = 'projectcontour.io/gateway-controller'

function peer(
  namespace: string,
  name: string,
  spec: Record<string, unknown>,
  accepted = true
): RouteObject {
  return {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'HTTPRoute',
    metadata: { name, namespace, generation: 1, creationTimestamp: '2025-01-01T00:00:00Z' },
    spec: { parentRefs: [{ name: 'web', namespace: 'infra' }], ...spec },
    status: {
      parents: [
        {
          parentRef: { name: 'web', namespace: 'infra' },
          controllerName: CONTOUR,
          conditions: [
            { type: 'Accepted', status: accepted ? 'True' : 'False', observedGeneration: 1 }
          ]
        }
      ]
    }
  }
}

const mine = route({
  parentRefs: [{ name: 'web', namespace: 'infra' }],
  hostnames: ['shop.example.com'],
  rules: [
    {
      matches: [{ path: { type: 'PathPrefix', value: '/api' } }],
      backendRefs: [{ name: 'cart', port: 8080 }]
    }
  ]
})

describe.each(MODES)('RuleMatchConflict (%s mode)', (mode) => {
  const conflict: Finding = {
    condition: 'Accepted',
    reason: 'RuleMatchConflict',
    severity: severityIn(mode),
    controllerName: CONTOUR,
    message: "HTTPRoute's Match has conflict with other HTTPRoute's Match"
  }
  const explain = (routes: RouteObject[] | undefined) =>
    explainRoute(
      routeVerdict(mine, [
        {
          parentRef: ref('web'),
          finding: conflict,
          controllerName: CONTOUR,
          verdict: verdictIn(mode)
        }
      ]),
      baseWorld('contour', CONTOUR),
      routes === undefined ? {} : { routes }
    ).parents[0]?.problems[0]

  it('names the Route on the same Gateway that holds the hostname and match', () => {
    const holder = peer('team-b', 'shop', {
      hostnames: ['*.example.com'],
      rules: [{ matches: [{ path: { value: '/api' } }] }]
    })
    const others = [
      holder,
      // same hostname, other match; same match, another Gateway; same everything but rejected there
      peer('team-c', 'docs', {
        hostnames: ['shop.example.com'],
        rules: [{ matches: [{ path: { value: '/docs' } }] }]
      }),
      {
        ...peer('team-d', 'elsewhere', {
          hostnames: ['shop.example.com'],
          rules: [{ matches: [{ path: { value: '/api' } }] }]
        }),
        spec: {
          parentRefs: [{ name: 'internal', namespace: 'infra' }],
          hostnames: ['shop.example.com'],
          rules: [{ matches: [{ path: { value: '/api' } }] }]
        }
      },
      peer(
        'team-e',
        'loser',
        { hostnames: ['shop.example.com'], rules: [{ matches: [{ path: { value: '/api' } }] }] },
        false
      )
    ]
    const p = explain([mine, ...others])
    expect(p?.title).toBe(
      'HTTPRoute team-b/shop already holds hostname shop.example.com and match "path PathPrefix /api" on Gateway infra/web'
    )
    expect(p?.evidence).toEqual([
      'HTTPRoute team-b/shop (created 2025-01-01T00:00:00Z) also attaches to Gateway infra/web with hostname shop.example.com and match "path PathPrefix /api".'
    ])
    expect(p?.remediation).toContain('remove the duplicate from HTTPRoute team-b/shop')
  })

  it('says when no Route read holds them, and when the Routes could not be read', () => {
    expect(explain([mine])?.evidence?.[0]).toMatch(
      /^No other HTTPRoute that route-gate read attaches/
    )
    expect(explain(undefined)?.evidence?.[0]).toMatch(/could not be read/)
  })
})

// Conflict reasons (Contour's RuleMatchConflict / RuleMatchPartiallyConflict, NGF's HostnameConflict
// on L4 Routes): which other Routes count as holding the hostname and match on the same parent, how
// matches compare, and which Route the title names first (the one Gateway API precedence keeps).
import { describe, expect, it } from 'vitest'
import { explainConflict, reportsConflict } from '../../../src/diagnose/conflicts.ts'
import type { Finding, RouteKind, RouteObject } from '../../../src/model/types.ts'
import {
  baseWorld,
  parentVerdict,
  ref,
  route,
  routeVerdict
} from '../../fixtures/diagnose/world.ts'

const CONTOUR = 'projectcontour.io/gateway-controller'
const NGF = 'gateway.nginx.org/nginx-gateway-controller'
const WEB = { name: 'web', namespace: 'infra' }

interface PeerOptions {
  kind?: RouteKind
  parentRefs?: Record<string, unknown>[]
  /** status entries: parent name in infra -> Accepted status and extra conditions */
  status?: { parent: Record<string, unknown>; conditions: Record<string, unknown>[] }[]
  created?: string | null
}

function peer(
  namespace: string,
  name: string,
  spec: Record<string, unknown>,
  options: PeerOptions = {}
): RouteObject {
  const kind = options.kind ?? 'HTTPRoute'
  const parentRefs = options.parentRefs ?? [WEB]
  const status = options.status ?? [
    {
      parent: WEB,
      conditions: [
        { type: 'Accepted', status: 'True', reason: 'Accepted', observedGeneration: 1 },
        { type: 'ResolvedRefs', status: 'True', reason: 'ResolvedRefs', observedGeneration: 1 }
      ]
    }
  ]
  const created =
    options.created === null ? {} : { creationTimestamp: options.created ?? '2025-01-01T00:00:00Z' }
  return {
    apiVersion:
      kind === 'HTTPRoute' || kind === 'GRPCRoute'
        ? 'gateway.networking.k8s.io/v1'
        : 'gateway.networking.k8s.io/v1alpha2',
    kind,
    metadata: { name, namespace, generation: 1, ...created },
    spec: { parentRefs, ...spec },
    status: {
      parents: status.map((s) => ({
        parentRef: s.parent,
        controllerName: CONTOUR,
        conditions: s.conditions
      }))
    }
  }
}

const conflictOn = (reason: string, controllerName = CONTOUR): Finding => ({
  condition: 'Accepted',
  reason,
  severity: 'error',
  controllerName
})

function explain(mine: RouteObject, routes: RouteObject[], reason = 'RuleMatchConflict') {
  const controllerName = reason === 'HostnameConflict' ? NGF : CONTOUR
  return explainConflict({
    route: mine,
    world: baseWorld('contour', controllerName),
    finding: conflictOn(reason, controllerName),
    parent: parentVerdict({
      parentRef: ref('web'),
      finding: conflictOn(reason, controllerName),
      controllerName,
      verdict: 'failed'
    }),
    routes: [mine, ...routes]
  })
}

const api = [{ matches: [{ path: { type: 'PathPrefix', value: '/api' } }] }]
const mine = route({ parentRefs: [WEB], hostnames: ['shop.example.com'], rules: api })

describe('reportsConflict', () => {
  it('is true when any parent carries a conflict reason among its findings', () => {
    const verdict = routeVerdict(mine, [
      { parentRef: ref('internal'), verdict: 'ready' },
      {
        parentRef: ref('web'),
        // the conflict is not the first finding
        finding: [
          { condition: 'ResolvedRefs', reason: 'BackendNotFound', severity: 'error' },
          conflictOn('RuleMatchPartiallyConflict')
        ]
      }
    ])
    expect(reportsConflict(verdict)).toBe(true)
    // ready on one Gateway, a missing backend on the other: no conflict anywhere
    const unrelated = routeVerdict(mine, [
      { parentRef: ref('internal'), verdict: 'ready' },
      {
        parentRef: ref('web'),
        finding: { condition: 'ResolvedRefs', reason: 'BackendNotFound', severity: 'error' }
      }
    ])
    expect(reportsConflict(unrelated)).toBe(false)
  })
})

describe('which other Routes hold the hostname and match on the same parent', () => {
  it('only Routes of the same kind attached to the very same Gateway (group, kind, namespace, name)', () => {
    const same = { hostnames: ['shop.example.com'], rules: api }
    const d = explain(mine, [
      peer('team-a', 'other-ns', same, { parentRefs: [{ name: 'web', namespace: 'edge' }] }),
      peer('team-a', 'other-name', same, {
        parentRefs: [{ name: 'internal', namespace: 'infra' }]
      }),
      peer('team-a', 'listenerset', same, {
        parentRefs: [{ kind: 'ListenerSet', name: 'web', namespace: 'infra' }]
      }),
      peer('team-a', 'other-group', same, {
        parentRefs: [{ group: 'example.com', kind: 'Gateway', name: 'web', namespace: 'infra' }]
      }),
      peer('team-a', 'grpc', same, { kind: 'GRPCRoute' }),
      // attached to web among other parents: it counts
      peer('team-z', 'holder', same, {
        parentRefs: [{ name: 'internal', namespace: 'infra' }, WEB]
      })
    ])
    expect(d.title).toBe(
      'HTTPRoute team-z/holder already holds hostname shop.example.com and match "path PathPrefix /api" on Gateway infra/web'
    )
    expect(d.evidence).toHaveLength(1)
  })

  it('a Route with the same name in another namespace, or another name in the same one, is not this Route', () => {
    const same = { hostnames: ['shop.example.com'], rules: api }
    const d = explain(mine, [
      peer('team-b', 'storefront', same),
      peer('shop', 'storefront-v2', same)
    ])
    expect(d.remediation).toContain(
      'remove the duplicate from HTTPRoute shop/storefront-v2 and HTTPRoute team-b/storefront'
    )
  })

  it('a Route the controller rejected on this Gateway holds nothing there; rejected elsewhere or with broken refs it still does', () => {
    const same = { hostnames: ['shop.example.com'], rules: api }
    const accepted = { type: 'Accepted', status: 'True', reason: 'Accepted', observedGeneration: 1 }
    const rejected = { ...accepted, status: 'False', reason: 'RuleMatchConflict' }
    const resolved = {
      type: 'ResolvedRefs',
      status: 'True',
      reason: 'ResolvedRefs',
      observedGeneration: 1
    }
    const internal = { name: 'internal', namespace: 'infra' }
    const both = [WEB, internal]
    const d = explain(mine, [
      peer('team-a', 'lost-here', same, {
        parentRefs: both,
        status: [
          { parent: WEB, conditions: [rejected, resolved] },
          { parent: internal, conditions: [accepted, resolved] }
        ]
      }),
      peer('team-b', 'lost-elsewhere', same, {
        parentRefs: both,
        status: [
          { parent: WEB, conditions: [accepted, resolved] },
          { parent: internal, conditions: [rejected, resolved] }
        ]
      }),
      peer('team-c', 'broken-backend', same, {
        status: [
          {
            parent: WEB,
            conditions: [accepted, { ...resolved, status: 'False', reason: 'BackendNotFound' }]
          }
        ]
      })
    ])
    expect(d.evidence.map((e) => e.split(' (created')[0])).toEqual([
      'HTTPRoute team-b/lost-elsewhere',
      'HTTPRoute team-c/broken-backend'
    ])
  })

  it('hostnames must intersect; a Route without hostnames takes every hostname', () => {
    const d = explain(
      route({ parentRefs: [WEB], hostnames: ['shop.example.com', 'shop.example.org'], rules: api }),
      [
        peer('team-a', 'docs', { hostnames: ['docs.example.com'], rules: api }),
        peer('team-b', 'wildcard', { hostnames: ['blog.example.com', '*.example.com'], rules: api })
      ]
    )
    expect(d.title).toBe(
      'HTTPRoute team-b/wildcard already holds hostname shop.example.com and match "path PathPrefix /api" on Gateway infra/web'
    )
    expect(d.evidence).toHaveLength(1)

    const catchAll = explain(mine, [peer('team-a', 'catch-all', { rules: api })])
    expect(catchAll.title).toContain('already holds hostname shop.example.com and match')
    const mineCatchAll = route({ parentRefs: [WEB], rules: api })
    expect(
      explain(mineCatchAll, [peer('team-a', 'named', { hostnames: ['a.example.com'], rules: api })])
        .title
    ).toContain('already holds hostname a.example.com and match')
    expect(explain(mineCatchAll, [peer('team-a', 'catch-all', { rules: api })]).title).toContain(
      'already holds hostname (any hostname) and match'
    )
  })
})

describe('how matches compare', () => {
  const holds = (mineRules: unknown[], theirRules: unknown[]) =>
    explain(route({ parentRefs: [WEB], hostnames: ['shop.example.com'], rules: mineRules }), [
      peer('team-b', 'shop', { hostnames: ['shop.example.com'], rules: theirRules })
    ])

  it('a rule without matches is PathPrefix / on an HTTPRoute, the same as writing it out', () => {
    const d = holds(
      [{ backendRefs: [{ name: 'cart', port: 8080 }] }],
      [{ matches: [{ path: { value: '/' } }] }]
    )
    expect(d.title).toContain('and match "path PathPrefix /" on Gateway infra/web')
    expect(
      holds([{}], [{ matches: [{ path: { type: 'Exact', value: '/' } }] }]).title
    ).toBeUndefined()
  })

  it('headers and query parameters compare in any order, type Exact by default; the method counts', () => {
    const mineRules = [
      {
        matches: [
          {
            path: { type: 'PathPrefix', value: '/api' },
            method: 'GET',
            headers: [
              { name: 'x-env', value: 'staging' },
              { name: 'x-canary', type: 'Exact', value: 'true' }
            ],
            queryParams: [{ name: 'v', value: '2' }]
          }
        ]
      }
    ]
    const theirs = (method: string, env: string) => [
      {
        matches: [
          {
            path: { value: '/api' },
            method,
            headers: [
              { name: 'x-canary', value: 'true' },
              { name: 'x-env', type: 'Exact', value: env }
            ],
            queryParams: [{ name: 'v', type: 'Exact', value: '2' }]
          }
        ]
      }
    ]
    expect(holds(mineRules, theirs('GET', 'staging')).title).toBe(
      'HTTPRoute team-b/shop already holds hostname shop.example.com and match "path PathPrefix /api, header x-canary Exact true, header x-env Exact staging, query v Exact 2, method GET" on Gateway infra/web'
    )
    expect(holds(mineRules, theirs('POST', 'staging')).title).toBeUndefined()
    expect(holds(mineRules, theirs('GET', 'prod')).title).toBeUndefined()
  })

  it('GRPCRoute matches compare by method (service and method, * when left out), with no path', () => {
    const grpc = (rules: unknown[], namespace = 'team-b') =>
      namespace === 'shop'
        ? route({ parentRefs: [WEB], hostnames: ['grpc.example.com'], rules }, 'GRPCRoute')
        : peer(namespace, 'cart', { hostnames: ['grpc.example.com'], rules }, { kind: 'GRPCRoute' })
    const byService = [{ matches: [{ method: { service: 'cart.v1.Cart' } }] }]
    const d = explain(grpc(byService, 'shop'), [grpc(byService)])
    expect(d.title).toBe(
      'GRPCRoute team-b/cart already holds hostname grpc.example.com and match "gRPC Exact cart.v1.Cart/*" on Gateway infra/web'
    )
    expect(d.remediation).toContain('Give this GRPCRoute a hostname or match of its own')
    const anyCall = explain(grpc([{}], 'shop'), [grpc([{ matches: [{}] }])])
    expect(anyCall.title).toContain('and match "any request" on Gateway infra/web')
    const otherMethod = explain(grpc([{ matches: [{ method: { method: 'Get' } }] }], 'shop'), [
      grpc([{ matches: [{ method: { type: 'Exact', service: '*', method: 'List' } }] }])
    ])
    expect(otherMethod.title).toBeUndefined()
    const get = [{ matches: [{ method: { method: 'Get' } }] }]
    expect(explain(grpc(get, 'shop'), [grpc(get)]).title).toContain(
      'and match "gRPC Exact */Get" on Gateway infra/web'
    )
    expect(otherMethod.evidence[0]).toContain('with an intersecting hostname and the same match')
  })
})

describe('L4 Routes (NGF HostnameConflict): the hostname alone conflicts', () => {
  it('names the TLSRoute holding the hostname, with no match, and a hostname-only fix', () => {
    const tls = (namespace: string, name: string, hostnames: string[]) =>
      namespace === 'shop'
        ? route(
            {
              parentRefs: [WEB],
              hostnames,
              rules: [{ backendRefs: [{ name: 'cart', port: 8443 }] }]
            },
            'TLSRoute',
            name
          )
        : peer(namespace, name, { hostnames, rules: [{}] }, { kind: 'TLSRoute' })
    const mineTls = tls('shop', 'passthrough', ['secure.example.com'])
    const d = explain(
      mineTls,
      [
        tls('team-a', 'other-host', ['other.example.com']),
        peer('team-a', 'http', { hostnames: ['secure.example.com'] }),
        tls('team-b', 'secure', ['secure.example.com'])
      ],
      'HostnameConflict'
    )
    expect(d.title).toBe(
      'TLSRoute team-b/secure already holds hostname secure.example.com on Gateway infra/web'
    )
    expect(d.evidence).toEqual([
      'TLSRoute team-b/secure (created 2025-01-01T00:00:00Z) also attaches to Gateway infra/web with hostname secure.example.com.'
    ])
    expect(d.remediation).toMatch(
      /^Give this TLSRoute a hostname of its own, or remove the duplicate from TLSRoute team-b\/secure;/
    )
    const none = explain(
      mineTls,
      [tls('team-a', 'other-host', ['other.example.com'])],
      'HostnameConflict'
    )
    expect(none.evidence).toEqual([
      'No other TLSRoute that route-gate read attaches to Gateway infra/web with an intersecting hostname: the other Route may be in a namespace that was not read, or already changed.'
    ])
  })
})

describe('evidence and naming', () => {
  it('lists at most five holders in the evidence and the remediation', () => {
    const holders = ['a', 'b', 'c', 'd', 'e', 'f'].map((n) =>
      peer(`team-${n}`, 'shop', { hostnames: ['shop.example.com'], rules: api })
    )
    const d = explain(mine, holders)
    expect(d.evidence).toHaveLength(5)
    expect(d.evidence.join('\n')).not.toContain('team-f')
    expect(d.remediation).toContain('HTTPRoute team-d/shop and HTTPRoute team-e/shop;')
    expect(d.remediation).not.toContain('team-f')
  })

  it('leaves the creation time out when the Route has none', () => {
    const d = explain(mine, [
      peer('team-b', 'shop', { hostnames: ['shop.example.com'], rules: api }, { created: null })
    ])
    expect(d.evidence).toEqual([
      'HTTPRoute team-b/shop also attaches to Gateway infra/web with hostname shop.example.com and match "path PathPrefix /api".'
    ])
  })

  it('without a parent there is nothing to compare', () => {
    expect(
      explainConflict({
        route: mine,
        world: baseWorld(),
        finding: conflictOn('RuleMatchConflict'),
        routes: [mine]
      })
    ).toEqual({ evidence: [] })
  })
})

describe('precedence: the title names the Route the controller keeps', () => {
  // Routes come back from a list sorted by namespace/name, not by age; Gateway API (and Contour)
  // keep the oldest Route, then the first in alphabetical namespace/name order.
  const partial = { hostnames: ['shop.example.com'], rules: api }
  it('names the oldest holder first, whatever order the Routes were read in', () => {
    const d = explain(
      mine,
      [
        peer('team-a', 'newer', partial, { created: '2025-06-01T00:00:00Z' }),
        peer('team-b', 'older', partial, { created: '2024-03-01T00:00:00Z' })
      ],
      'RuleMatchPartiallyConflict'
    )
    expect(d.title).toMatch(/^HTTPRoute team-b\/older already holds/)
    expect(d.evidence[0]).toMatch(/^HTTPRoute team-b\/older \(created 2024-03-01T00:00:00Z\)/)
    expect(d.remediation).toContain(
      'remove the duplicate from HTTPRoute team-b/older and HTTPRoute team-a/newer'
    )
  })

  it('on the same creation time, the first by namespace/name', () => {
    const d = explain(mine, [
      peer('team-b', 'api', partial),
      peer('team-a', 'zeta', partial),
      peer('team-a', 'api', partial)
    ])
    expect(d.title).toMatch(/^HTTPRoute team-a\/api already holds/)
    expect(d.remediation).toContain(
      'remove the duplicate from HTTPRoute team-a/api, HTTPRoute team-a/zeta and HTTPRoute team-b/api'
    )
  })

  it('a Route without a creation time (not read from the cluster) comes after those with one', () => {
    const d = explain(mine, [
      peer('team-a', 'manifest', partial, { created: null }),
      peer('team-b', 'live', partial, { created: '2025-06-01T00:00:00Z' })
    ])
    expect(d.title).toMatch(/^HTTPRoute team-b\/live already holds/)
  })

  it('orders any number of holders read in reverse order', () => {
    const names = ['team-e/a', 'team-d/b', 'team-c/a', 'team-b/z', 'team-b/a', 'team-a/a']
    const d = explain(
      mine,
      names.map((n) => peer(n.split('/')[0]!, n.split('/')[1]!, partial))
    )
    expect(d.remediation).toContain(
      'remove the duplicate from HTTPRoute team-a/a, HTTPRoute team-b/a, HTTPRoute team-b/z, HTTPRoute team-c/a and HTTPRoute team-d/b;'
    )
    const byAge = explain(
      mine,
      ['2025-05-01', '2025-04-01', '2025-03-01', '2025-02-01'].map((day, i) =>
        peer('team-a', `r${i}`, partial, { created: `${day}T00:00:00Z` })
      )
    )
    expect(byAge.remediation).toContain(
      'remove the duplicate from HTTPRoute team-a/r3, HTTPRoute team-a/r2, HTTPRoute team-a/r1 and HTTPRoute team-a/r0;'
    )
  })
})

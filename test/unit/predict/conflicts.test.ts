// Route-to-route conflicts as each controller decides them. Contour's rule is predicted exactly: per
// Envoy listener (port) and per hostname it computes, the oldest Route keeps a match (path, headers
// in their order, query parameters, method); a Route all of whose rules lose is Accepted=False
// RuleMatchConflict, one that loses some is ready with a PartiallyInvalid warning. Where the objects
// cannot tell (both Routes new, an undecided namespace) the parent is unknown, naming the other.
import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../src/model/types.ts'
import {
  CONTOUR,
  EDGE,
  EVERY_KIND,
  gateway,
  gatewayClass,
  httpRoute,
  namespace,
  onlyParent,
  run,
  service,
  type ListenerSpec
} from './fixtures.ts'

const ALL = { namespaces: { from: 'All' } }
const OLD = '2026-01-01T00:00:00Z'

function cluster(controllerName: string, listeners: ListenerSpec[] = [{ name: 'http' }]) {
  return [
    gatewayClass('eg', controllerName),
    namespace('infra'),
    namespace('app'),
    gateway(
      'infra',
      'edge',
      listeners.map((l) => ({ allowedRoutes: ALL, ...l }))
    ),
    service('app', 'web')
  ]
}

type Match = Record<string, unknown>

/** An HTTPRoute with one rule per entry of `rules` (each a list of matches), created at `created`. */
function route(
  name: string,
  options: {
    hostnames?: string[]
    rules?: Match[][]
    created?: string
    sectionName?: string
    ns?: string
  } = {}
): KubeObject {
  const parentRef = options.sectionName ? { ...EDGE, sectionName: options.sectionName } : EDGE
  const object = httpRoute(options.ns ?? 'app', name, {
    parentRefs: [parentRef],
    ...(options.hostnames ? { hostnames: options.hostnames } : {})
  })
  const rules = (options.rules ?? [[{ path: { type: 'PathPrefix', value: '/' } }]]).map(
    (matches) => ({ matches, backendRefs: [{ name: 'web', port: 80 }] })
  )
  return {
    ...object,
    metadata: {
      ...object.metadata,
      ...(options.created ? { creationTimestamp: options.created } : {})
    },
    spec: { ...(object.spec as object), rules }
  }
}

const shop = ['shop.example.com']
const held = route('held', { hostnames: shop, created: OLD })

const accepted = (report: ReturnType<typeof run>) =>
  onlyParent(report).conditions?.find((c) => c.type === 'Accepted')

describe('predict and Contour match conflicts', () => {
  it('a new Route asking for what an older one holds is failed RuleMatchConflict, naming it', () => {
    const report = run([...cluster(CONTOUR), held], [route('new', { hostnames: shop })])
    const parent = onlyParent(report)
    expect(parent.verdict).toBe('failed')
    expect(accepted(report)?.reason).toBe('RuleMatchConflict')
    expect(accepted(report)?.message).toContain(`HTTPRoute app/held (created ${OLD})`)
    expect(accepted(report)?.message).toContain('"path PathPrefix /" for hostname shop.example.com')
    expect(report.verdict).toBe('failed')
  })

  it('another hostname, another path, another port or another kind is no conflict', () => {
    const other = [route('new', { hostnames: ['admin.example.com'] })]
    expect(onlyParent(run([...cluster(CONTOUR), held], other)).verdict).toBe('ready')
    const api = [route('new', { hostnames: shop, rules: [[{ path: { value: '/api' } }]] })]
    expect(onlyParent(run([...cluster(CONTOUR), held], api)).verdict).toBe('ready')
    // two listeners on two ports are two Envoy listeners: each has its own virtual hosts
    const ports = cluster(CONTOUR, [{ name: 'http' }, { name: 'alt', port: 8080 }])
    const there = route('held', { hostnames: shop, created: OLD, sectionName: 'http' })
    const alt = [route('new', { hostnames: shop, sectionName: 'alt' })]
    expect(onlyParent(run([...ports, there], alt)).verdict).toBe('ready')
    // a wildcard and a hostname under it are two virtual hosts
    const wildcard = route('held', { hostnames: ['*.example.com'], created: OLD })
    expect(
      onlyParent(run([...cluster(CONTOUR), wildcard], [route('new', { hostnames: shop })])).verdict
    ).toBe('ready')
  })

  it('headers are compared in their written order, with the method among them', () => {
    const headers = (...names: string[]) => names.map((name) => ({ name, value: 'v' }))
    const match = (names: string[], method?: string): Match[][] => [
      [{ path: { value: '/' }, headers: headers(...names), ...(method ? { method } : {}) }]
    ]
    const older = route('held', { hostnames: shop, created: OLD, rules: match(['a', 'b'], 'GET') })
    const same = route('new', { hostnames: shop, rules: match(['a', 'b'], 'GET') })
    expect(onlyParent(run([...cluster(CONTOUR), older], [same])).verdict).toBe('failed')
    const swapped = route('new', { hostnames: shop, rules: match(['b', 'a'], 'GET') })
    expect(onlyParent(run([...cluster(CONTOUR), older], [swapped])).verdict).toBe('ready')
    const post = route('new', { hostnames: shop, rules: match(['a', 'b'], 'POST') })
    expect(onlyParent(run([...cluster(CONTOUR), older], [post])).verdict).toBe('ready')
  })

  it('a Route without hostnames takes its listener hostname, not "any"', () => {
    const named = cluster(CONTOUR, [{ name: 'http', hostname: 'shop.example.com' }])
    const bare = route('held', { created: OLD })
    expect(onlyParent(run([...named, bare], [route('new', { hostnames: shop })])).verdict).toBe(
      'failed'
    )
    // on a listener without a hostname it takes "*", another virtual host than shop.example.com
    expect(
      onlyParent(run([...cluster(CONTOUR), bare], [route('new', { hostnames: shop })])).verdict
    ).toBe('ready')
  })

  it('some rules lost: ready, with a PartiallyInvalid warning naming the rule', () => {
    const rules = [[{ path: { value: '/' } }], [{ path: { value: '/own' } }]]
    const report = run([...cluster(CONTOUR), held], [route('new', { hostnames: shop, rules })])
    const parent = onlyParent(report)
    expect(parent.verdict).toBe('ready')
    const warning = parent.problems.find((p) => p.reason === 'RuleMatchPartiallyConflict')
    expect(warning?.severity).toBe('warning')
    expect(JSON.stringify(warning)).toContain('rule 0')
  })

  it('a Route the change updates keeps its creationTimestamp, so it keeps what it holds', () => {
    const younger = route('younger', {
      hostnames: shop,
      created: '2026-06-01T00:00:00Z',
      rules: [[{ path: { value: '/' } }]]
    })
    const olderOnApi = route('held', {
      hostnames: shop,
      created: OLD,
      rules: [[{ path: { value: '/api' } }]]
    })
    // the change moves the older Route onto "/": it is older than "younger", so it keeps the match
    const moved = route('held', { hostnames: shop })
    expect(onlyParent(run([...cluster(CONTOUR), olderOnApi, younger], [moved])).verdict).toBe(
      'ready'
    )
    // and the younger one, changed to what the older holds, loses it
    const taken = route('younger', { hostnames: shop, rules: [[{ path: { value: '/api' } }]] })
    expect(onlyParent(run([...cluster(CONTOUR), olderOnApi, younger], [taken])).verdict).toBe(
      'failed'
    )
  })

  it('two new Routes asking for the same match: unknown, naming each other', () => {
    const report = run(cluster(CONTOUR), [
      route('first', { hostnames: shop }),
      route('second', { hostnames: shop })
    ])
    expect(report.routes.map((r) => r.verdict)).toEqual(['unknown', 'unknown'])
    const why = report.routes.map((r) => r.parents[0]?.why?.join(' ') ?? '')
    expect(why[0]).toMatch(/HTTPRoute app\/(first|second)/)
    expect(why.join(' ')).toMatch(/not known before they are created/)
  })

  it('a Route of the source without creationTimestamp is older than a new one, unordered with its peers', () => {
    const undated = route('held', { hostnames: shop })
    const report = run([...cluster(CONTOUR), undated], [route('new', { hostnames: shop })])
    expect(accepted(report)?.reason).toBe('RuleMatchConflict')
    // the change updates another undated Route of the source onto the same match: which of the two
    // Contour took first, the source does not say
    const peer = route('peer', { hostnames: shop, rules: [[{ path: { value: '/peer' } }]] })
    const moved = route('peer', { hostnames: shop })
    const unordered = run([...cluster(CONTOUR), undated, peer], [moved])
    expect(onlyParent(unordered).verdict).toBe('unknown')
    expect(onlyParent(unordered).why?.join(' ')).toContain('no creationTimestamp')
  })

  it('a holder whose namespace the source cannot decide makes the conflict unknown', () => {
    const selector = { namespaces: { from: 'Selector', selector: { matchLabels: { t: 'x' } } } }
    const objects = cluster(CONTOUR, [{ name: 'http', allowedRoutes: selector }])
    const elsewhere = route('held', { hostnames: shop, created: OLD, ns: 'unlisted' })
    const labelled = namespace('app', { t: 'x' })
    const report = run(
      [...objects.filter((o) => o.metadata.name !== 'app'), labelled, elsewhere],
      [route('new', { hostnames: shop })],
      { source: { kind: 'dump', complete: EVERY_KIND.filter((k) => k !== 'Namespace') } }
    )
    expect(onlyParent(report).verdict).toBe('unknown')
    expect(onlyParent(report).why?.join(' ')).toContain('HTTPRoute unlisted/held')
  })

  it('a hostname another listener of the port names is left to it: NoMatchingListenerHostname', () => {
    const listeners = [{ name: 'http' }, { name: 'shop', hostname: 'shop.example.com' }]
    const report = run(cluster(CONTOUR, listeners), [
      route('new', { hostnames: shop, sectionName: 'http' })
    ])
    expect(accepted(report)?.reason).toBe('NoMatchingListenerHostname')
    expect(accepted(report)?.message).toContain('listener http')
  })

  it('thousands of Routes asking for one match: the oldest keeps it, every later one is refused', () => {
    const many = Array.from({ length: 3000 }, (_, i) =>
      route(`r${String(i).padStart(4, '0')}`, {
        hostnames: shop,
        created: new Date(Date.parse(OLD) + i * 1000).toISOString()
      })
    )
    const report = run([...cluster(CONTOUR), ...many], [route('new', { hostnames: shop })])
    expect(accepted(report)?.message).toContain('HTTPRoute app/r0000')
  })
})

describe('predict and other controllers’ conflicts', () => {
  it('NGINX Gateway Fabric: HostnameConflict only between TLSRoutes with the very same hostname', () => {
    const NGF = 'gateway.nginx.org/nginx-gateway-controller'
    const tlsCluster = [
      ...cluster(NGF, [{ name: 'tls', port: 443, protocol: 'TLS' }]).filter(
        (o) => o.kind !== 'Service'
      ),
      service('app', 'web', [443])
    ]
    const tls = (name: string, hostname: string) => ({
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'TLSRoute',
      metadata: { name, namespace: 'app', generation: 1 },
      spec: {
        parentRefs: [EDGE],
        hostnames: [hostname],
        rules: [{ backendRefs: [{ name: 'web', port: 443 }] }]
      }
    })
    const older = tls('older', 'db.example.com')
    const same = onlyParent(run([...tlsCluster, older], [tls('new', 'db.example.com')]))
    expect(same.verdict).toBe('unknown')
    expect(same.why?.join(' ')).toMatch(/HostnameConflict/)
    // a wildcard over it intersects, but is not the same hostname: NGF serves both
    expect(onlyParent(run([...tlsCluster, older], [tls('new', '*.example.com')])).verdict).toBe(
      'ready'
    )
    // the very hostname is found however many older wildcards over it intersect first
    const wildcards = Array.from({ length: 40 }, (_, i) =>
      tls(`w${String(i).padStart(2, '0')}`, '*.example.com')
    )
    const behind = onlyParent(
      run(
        [...tlsCluster, ...wildcards, tls('x-exact', 'db.example.com')],
        [tls('new', 'db.example.com')]
      )
    )
    expect(behind.verdict).toBe('unknown')
    expect(behind.why?.join(' ')).toContain('TLSRoute app/x-exact')
    // on another listener port it is another slot: no conflict
    const twoPorts = [
      ...cluster(NGF, [
        { name: 'tls', port: 443, protocol: 'TLS' },
        { name: 'alt', port: 8443, protocol: 'TLS' }
      ]).filter((o) => o.kind !== 'Service'),
      service('app', 'web', [443])
    ]
    const on = (name: string, sectionName: string) => {
      const object = tls(name, 'db.example.com')
      return { ...object, spec: { ...object.spec, parentRefs: [{ ...EDGE, sectionName }] } }
    }
    expect(onlyParent(run([...twoPorts, on('older', 'tls')], [on('new', 'alt')])).verdict).toBe(
      'ready'
    )
    expect(onlyParent(run([...twoPorts, on('older', 'tls')], [on('new', 'tls')])).verdict).toBe(
      'unknown'
    )
    // and an HTTPRoute under NGF is never held to it
    expect(
      onlyParent(run([...cluster(NGF), held], [route('new', { hostnames: shop })])).verdict
    ).toBe('ready')
  })

  it('a controller that writes no conflict reason keeps both Routes ready', () => {
    const report = run(
      [...cluster('gateway.envoyproxy.io/gatewayclass-controller'), held],
      [route('new', { hostnames: shop })]
    )
    expect(onlyParent(report).verdict).toBe('ready')
  })
})

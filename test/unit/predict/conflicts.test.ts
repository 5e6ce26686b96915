// Route-to-route conflicts are never a definite failure: where the controller writes a conflict
// reason (Contour's RuleMatchConflict), a Route sharing a hostname and match with another on the same
// parent is unknown, naming the other; where it does not (Envoy Gateway), the Route stays ready.
import { describe, expect, it } from 'vitest'
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
  service
} from './fixtures.ts'

function cluster(controllerName: string) {
  return [
    gatewayClass('eg', controllerName),
    namespace('infra'),
    namespace('app'),
    gateway('infra', 'edge', [{ name: 'http', allowedRoutes: { namespaces: { from: 'All' } } }]),
    service('app', 'web')
  ]
}

const held = httpRoute('app', 'held', { parentRefs: [EDGE], hostnames: ['shop.example.com'] })

describe('predict and route-to-route conflicts', () => {
  it('Contour: a Route sharing hostname and match with an existing one is unknown, naming it', () => {
    const report = run(
      [...cluster(CONTOUR), held],
      [httpRoute('app', 'new', { parentRefs: [EDGE], hostnames: ['shop.example.com'] })]
    )
    const parent = onlyParent(report)
    expect(parent.verdict).toBe('unknown')
    expect(parent.why?.join(' ')).toMatch(/RuleMatchConflict/)
    expect(parent.why?.join(' ')).toContain('HTTPRoute app/held')
    expect(report.verdict).toBe('unknown')
  })

  it('Contour: another hostname, or the same hostname on another path, is no conflict', () => {
    const other = run(
      [...cluster(CONTOUR), held],
      [httpRoute('app', 'new', { parentRefs: [EDGE], hostnames: ['admin.example.com'] })]
    )
    expect(onlyParent(other).verdict).toBe('ready')
    const route = httpRoute('app', 'new', { parentRefs: [EDGE], hostnames: ['shop.example.com'] })
    ;(route.spec as { rules: Record<string, unknown>[] }).rules[0]!.matches = [
      { path: { type: 'PathPrefix', value: '/api' } }
    ]
    expect(onlyParent(run([...cluster(CONTOUR), held], [route])).verdict).toBe('ready')
  })

  it('NGINX Gateway Fabric: HostnameConflict only between TLSRoutes with the very same hostname', () => {
    const NGF = 'gateway.nginx.org/nginx-gateway-controller'
    const tlsCluster = [
      gatewayClass('eg', NGF),
      namespace('infra'),
      namespace('app'),
      gateway('infra', 'edge', [
        {
          name: 'tls',
          port: 443,
          protocol: 'TLS',
          allowedRoutes: { namespaces: { from: 'All' } }
        }
      ]),
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
    // and an HTTPRoute under NGF is never held to it
    const http = [...cluster(NGF), held]
    const route = httpRoute('app', 'new', { parentRefs: [EDGE], hostnames: ['shop.example.com'] })
    expect(onlyParent(run(http, [route])).verdict).toBe('ready')
  })

  it('a controller that writes no conflict reason keeps both Routes ready', () => {
    const report = run(
      [...cluster('gateway.envoyproxy.io/gatewayclass-controller'), held],
      [httpRoute('app', 'new', { parentRefs: [EDGE], hostnames: ['shop.example.com'] })],
      { source: { kind: 'dump', complete: EVERY_KIND } }
    )
    expect(onlyParent(report).verdict).toBe('ready')
  })
})

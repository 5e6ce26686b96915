// Request planning: which requests prove that a parent serves a Route, from the Route, the parentRef
// and the Gateway alone.
import { describe, expect, it } from 'vitest'
import { normalizeParentRef } from '../../../src/model/parent-ref.ts'
import { parseCidr } from '../../../src/probe/rules/target-guard.ts'
import type { KubeObject, RouteObject, World } from '../../../src/model/types.ts'
import {
  MAX_REQUESTS_PER_PARENT,
  planParent,
  type ListenerTarget
} from '../../../src/probe/rules/plan-requests.ts'

const OPEN = { allowedCidrs: [] }

function gateway(
  listeners: Record<string, unknown>[],
  addresses: Record<string, unknown>[] = [{ type: 'IPAddress', value: '127.0.0.1' }]
): KubeObject {
  return {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'Gateway',
    metadata: { name: 'edge', namespace: 'infra' },
    spec: { gatewayClassName: 'c', listeners },
    status: { addresses }
  }
}

const all = { namespaces: { from: 'All' } }
const http = (extra: Record<string, unknown> = {}) => ({
  name: 'web',
  port: 8080,
  protocol: 'HTTP',
  allowedRoutes: all,
  ...extra
})

function httpRoute(spec: Record<string, unknown>, kind: RouteObject['kind'] = 'HTTPRoute') {
  return {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind,
    metadata: { name: 'web', namespace: 'shop', generation: 1 },
    spec: { parentRefs: [{ name: 'edge', namespace: 'infra' }], ...spec }
  } as RouteObject
}

const world = (gw: KubeObject): World => ({
  gatewayClasses: [],
  gateways: [gw],
  namespaces: [],
  services: [],
  referenceGrants: [],
  unreadable: []
})

const ref = (extra: Record<string, unknown> = {}) =>
  normalizeParentRef({ name: 'edge', namespace: 'infra', ...extra }, 'shop')

function targets(route: RouteObject, gw: KubeObject, extra = {}, options = {}): ListenerTarget[] {
  const plan = planParent(route, ref(extra), world(gw), { token: 't0', policy: OPEN, ...options })
  if (!('targets' in plan)) throw new Error(`not probed: ${plan.notProbed}`)
  return plan.targets
}

describe('planParent', () => {
  it('sends one request per rule, from its first match, with the Route hostname as Host', () => {
    const route = httpRoute({
      hostnames: ['shop.example.com'],
      rules: [
        { matches: [{ path: { type: 'Exact', value: '/cart' }, method: 'POST' }] },
        {
          matches: [
            {
              path: { type: 'PathPrefix', value: '/api' },
              headers: [{ name: 'X-Version', value: '2' }],
              queryParams: [{ name: 'q', value: 'a b' }]
            },
            { path: { type: 'PathPrefix', value: '/other' } }
          ]
        }
      ]
    })
    const [target] = targets(route, gateway([http()]))
    expect(target?.requests).toEqual([
      expect.objectContaining({
        scheme: 'http',
        address: '127.0.0.1',
        port: 8080,
        host: 'shop.example.com',
        method: 'POST',
        path: '/cart',
        rule: 0,
        verifyTls: true
      }),
      expect.objectContaining({
        method: 'GET',
        path: '/api?q=a+b',
        headers: { 'x-version': '2' },
        rule: 1
      })
    ])
    expect(target?.requests[0]?.servername).toBeUndefined()
  })

  it('gives a wildcard hostname a concrete label, and narrows to the listener hostname', () => {
    const wild = httpRoute({ hostnames: ['*.example.com'] })
    expect(targets(wild, gateway([http()]))[0]?.requests[0]?.host).toBe(
      'route-gate-probe.example.com'
    )
    const exactListener = gateway([http({ hostname: 'a.example.com' })])
    expect(targets(wild, exactListener)[0]?.requests[0]?.host).toBe('a.example.com')
    const deeper = gateway([http({ hostname: '*.shop.example.com' })])
    expect(targets(wild, deeper)[0]?.requests[0]?.host).toBe('route-gate-probe.shop.example.com')
  })

  it('sends only the hostnames each listener admits, and skips listeners that admit none', () => {
    const route = httpRoute({ hostnames: ['a.example.com', 'b.other.org'] })
    const gw = gateway([
      http({ name: 'one', hostname: '*.example.com' }),
      http({ name: 'two', port: 8081, hostname: 'x.elsewhere.net' })
    ])
    const planned = targets(route, gw)
    expect(planned.map((t) => t.listener)).toEqual(['one'])
    expect(planned[0]?.requests.map((r) => r.host)).toEqual(['a.example.com'])
  })

  it('uses HTTPS with SNI = hostname, and only the listeners the parentRef selects', () => {
    const route = httpRoute({ hostnames: ['shop.example.com'] })
    const gw = gateway([http(), http({ name: 'tls', port: 8443, protocol: 'HTTPS' })])
    const planned = targets(route, gw, { sectionName: 'tls' })
    expect(planned).toHaveLength(1)
    expect(planned[0]?.requests[0]).toMatchObject({
      scheme: 'https',
      port: 8443,
      servername: 'shop.example.com'
    })
    expect(targets(route, gw, { port: 8080 }).map((t) => t.listener)).toEqual(['web'])
  })

  it('asks for a hostname and path no Route claims, twice, without taking its answer as proof', () => {
    const route = httpRoute({ hostnames: ['shop.example.com'] })
    const [target] = targets(route, gateway([http()]))
    expect(target?.noRoute?.map((r) => [r.host, r.path, r.verifyTls])).toEqual([
      ['route-gate-no-route-t0a.invalid', '/route-gate-no-route-t0a', false],
      ['route-gate-no-route-t0b.invalid', '/route-gate-no-route-t0b', false]
    ])
  })

  it('has no no-route request where the Route claims every hostname of the listener', () => {
    const [target] = targets(httpRoute({}), gateway([http()]))
    expect(target?.noRoute).toBeUndefined()
    expect(target?.requests[0]).toMatchObject({ host: 'route-gate-probe.invalid', path: '/' })
  })

  it('uses gateway-address instead of status.addresses', () => {
    const route = httpRoute({ hostnames: ['shop.example.com'] })
    const [target] = targets(route, gateway([http()], []), {}, { gatewayAddress: '127.0.0.9' })
    expect(target?.requests[0]?.address).toBe('127.0.0.9')
  })

  it('skips rules whose matches are all regular expressions, and says so', () => {
    const route = httpRoute({
      hostnames: ['shop.example.com'],
      rules: [
        { matches: [{ path: { type: 'RegularExpression', value: '/v[0-9]+' } }] },
        { matches: [{ headers: [{ type: 'RegularExpression', name: 'x', value: '.*' }] }] },
        { matches: [{ path: { type: 'Exact', value: '/ok' } }] }
      ]
    })
    const plan = planParent(route, ref(), world(gateway([http()])), { token: 't', policy: OPEN })
    expect(plan).toMatchObject({
      skipped: [
        'rule 0: only regular-expression matches',
        'rule 1: only regular-expression matches'
      ]
    })
    expect('targets' in plan && plan.targets[0]?.requests.map((r) => r.path)).toEqual(['/ok'])
  })

  it('bounds the number of requests per parent', () => {
    const rules = Array.from({ length: 40 }, (_, i) => ({
      matches: [{ path: { type: 'Exact', value: `/r${i}` } }]
    }))
    const plan = planParent(
      httpRoute({ hostnames: ['a.example.com'], rules }),
      ref(),
      world(gateway([http()])),
      { token: 't', policy: OPEN }
    )
    expect('targets' in plan && plan.targets[0]?.requests).toHaveLength(MAX_REQUESTS_PER_PARENT)
    expect('skipped' in plan && plan.skipped.at(-1)).toMatch(/beyond 32/)
  })

  it('names why a parent cannot be probed', () => {
    const route = httpRoute({ hostnames: ['shop.example.com'] })
    const why = (r: RouteObject, gw: KubeObject, extra = {}): string | undefined => {
      const plan = planParent(r, ref(extra), world(gw), { token: 't', policy: OPEN })
      return 'notProbed' in plan ? plan.notProbed : undefined
    }
    expect(why(httpRoute({}, 'GRPCRoute'), gateway([http()]))).toMatch(
      /GRPCRoute traffic is not probed/
    )
    expect(why(route, gateway([http()], []))).toMatch(
      /no address in status.addresses; give one with gateway-address/
    )
    expect(why(route, gateway([http({ protocol: 'TCP' })]))).toMatch(/no HTTP or HTTPS listener/)
    expect(
      why(route, gateway([http({ allowedRoutes: { namespaces: { from: 'Same' } } })]))
    ).toMatch(/no HTTP or HTTPS listener/)
    expect(why(route, gateway([http()]), { name: 'other' })).toMatch(/could not be read/)
    const regexOnly = httpRoute({
      rules: [{ matches: [{ path: { type: 'RegularExpression', value: '.*' } }] }]
    })
    expect(why(regexOnly, gateway([http()]))).toMatch(/no rule has a match/)
  })
})

describe('the target guard in planning', () => {
  const plain = httpRoute({ rules: [{}] })
  const notProbed = (address: Record<string, unknown>, options = {}) =>
    planParent(plain, ref(), world(gateway([http()], [address])), {
      token: 't',
      policy: OPEN,
      ...options
    })

  it.each([
    ['169.254.169.254', 'a cloud metadata service address'],
    ['169.254.10.10', 'a link-local address'],
    ['fe80::1', 'a link-local address'],
    ['::ffff:169.254.169.254', 'a cloud metadata service address'],
    ['0.0.0.0', 'an unspecified address'],
    ['255.255.255.255', 'a broadcast address'],
    ['239.1.2.3', 'a multicast address']
  ])('refuses a status address %s: %s', (value, what) => {
    expect(notProbed({ type: 'IPAddress', value })).toEqual({
      cause: 'refused',
      notProbed: `not probed: ${value} is ${what}`
    })
  })

  it('refuses a metadata service name before it is resolved', () => {
    expect(notProbed({ type: 'Hostname', value: 'metadata.google.internal' })).toEqual({
      cause: 'refused',
      notProbed: 'not probed: metadata.google.internal is a cloud metadata service'
    })
  })

  it('probes a name it cannot judge yet: the sender judges what it resolves to', () => {
    const plan = notProbed({ type: 'Hostname', value: 'lb.example.com' })
    expect('targets' in plan && plan.targets[0]?.requests[0]).toMatchObject({
      address: 'lb.example.com',
      origin: 'status'
    })
  })

  it('narrows status addresses to traffic-allowed-cidrs', () => {
    const allowedCidrs = [parseCidr('10.0.0.0/8')!]
    expect(
      notProbed({ type: 'IPAddress', value: '127.0.0.1' }, { policy: { allowedCidrs } })
    ).toEqual({
      cause: 'refused',
      notProbed: 'not probed: 127.0.0.1 is outside traffic-allowed-cidrs (10.0.0.0/8)'
    })
  })

  it('probes a link-local gateway-address as given (the owner chose it), never a metadata one', () => {
    const given = notProbed(
      { type: 'IPAddress', value: '203.0.113.9' },
      { gatewayAddress: '169.254.10.10', policy: { allowedCidrs: [parseCidr('10.0.0.0/8')!] } }
    )
    expect('targets' in given && given.targets[0]?.requests[0]).toMatchObject({
      address: '169.254.10.10',
      origin: 'input'
    })
    expect(
      notProbed({ type: 'IPAddress', value: '10.0.0.1' }, { gatewayAddress: '169.254.169.254' })
    ).toEqual({
      cause: 'refused',
      notProbed: 'not probed: 169.254.169.254 is a cloud metadata service address'
    })
  })
})

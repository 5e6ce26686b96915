import { describe, expect, it } from 'vitest'
import { explainRoute } from '../../../src/diagnose/explain.ts'
import type { Finding, ParentRef, Problem, RouteObject, World } from '../../../src/model/types.ts'
import {
  MODES,
  baseWorld,
  gateway,
  namespace,
  ref,
  route,
  routeVerdict,
  severityIn
} from '../../fixtures/diagnose/world.ts'
import type { Mode } from '../../fixtures/diagnose/world.ts'
import { byName, fixText, fixedListener } from '../../helpers/fixes.ts'

function problemFor(
  r: RouteObject,
  parentRef: ParentRef,
  finding: Finding,
  world: World = baseWorld()
): Problem | undefined {
  return explainRoute(routeVerdict(r, [{ parentRef, finding }]), world).parents[0]?.problems[0]
}

/** Remediations are sentences joined with "; or ": compare without caring about the capital. */
function expectSays(text: string | undefined, fragment: string): void {
  expect(text?.toLowerCase()).toContain(fragment.toLowerCase())
}

function finding(reason: string, mode: Mode, message?: string): Finding {
  return {
    condition: 'Accepted',
    reason,
    severity: severityIn(mode),
    controllerName: 'istio.io/gateway-controller',
    ...(message ? { message } : {})
  }
}

describe.each(MODES)('NotAllowedByListeners (%s mode)', (mode) => {
  it('names the listener that admits its own namespace only and proposes the Gateway change', () => {
    const r = route({ parentRefs: [{ name: 'web', namespace: 'infra', sectionName: 'http' }] })
    const message =
      'hostnames matched parent hostname "", but namespace "shop" is not allowed by the parent'
    const p = problemFor(
      r,
      ref('web', { sectionName: 'http' }),
      finding('NotAllowedByListeners', mode, message)
    )
    expect(p?.standard).toBe(true)
    expect(p?.message).toBe(message)
    expect(p?.title).toBe(
      'Gateway infra/web: listener http does not allow this HTTPRoute from namespace shop'
    )
    expect(p?.evidence).toContain(
      'Listener http (port 80, HTTP) admits Routes from namespace infra only (from: Same); the HTTPRoute is in shop.'
    )
    expectSays(p?.remediation, 'change listener http of Gateway infra/web to admit namespace shop')
    expect(fixedListener(p, 'http')?.allowedRoutes).toMatchObject({
      namespaces: byName('infra', 'shop')
    })
    expect(fixText(p)).toContain('from: Selector')
  })

  it('gives the namespace label to add when a selector refuses, with --overwrite for a changed value', () => {
    const r = route({ parentRefs: [{ name: 'web', namespace: 'infra', sectionName: 'https' }] })
    const p = problemFor(
      r,
      ref('web', { sectionName: 'https' }),
      finding('NotAllowedByListeners', mode)
    )
    expect(p?.evidence?.[0]).toContain(
      'namespace shop does not match: label team is "shop", not "web"'
    )
    expectSays(p?.remediation, 'label namespace shop team=web (the fix below)')
    expect(p?.fixes?.[0]?.command).toBe('kubectl label namespace shop team=web --overwrite')
  })

  it('says which kinds a listener takes and points at a listener that would accept', () => {
    const r = route({
      parentRefs: [{ name: 'web', namespace: 'infra', sectionName: 'passthrough' }]
    })
    const p = problemFor(
      r,
      ref('web', { sectionName: 'passthrough' }),
      finding(
        'NotAllowedByListeners',
        mode,
        'kind gateway.networking.k8s.io/v1/HTTPRoute is not allowed'
      )
    )
    expect(p?.evidence?.[0]).toBe(
      'Listener passthrough (port 8443, TLS) takes TLSRoute, not HTTPRoute.'
    )
    expectSays(p?.remediation, 'attach the HTTPRoute to a listener whose protocol supports it')
  })

  it('uses supportedKinds from listener status over the protocol defaults', () => {
    const world = baseWorld()
    world.gateways = [
      gateway(
        'infra',
        'web',
        'istio',
        [
          {
            name: 'http',
            port: 80,
            protocol: 'HTTP',
            allowedRoutes: { namespaces: { from: 'All' }, kinds: [{ kind: 'GRPCRoute' }] }
          }
        ],
        {
          listeners: [
            {
              name: 'http',
              attachedRoutes: 0,
              supportedKinds: [{ group: 'gateway.networking.k8s.io', kind: 'GRPCRoute' }],
              conditions: []
            }
          ]
        }
      )
    ]
    const p = problemFor(route({}), ref('web'), finding('NotAllowedByListeners', mode), world)
    expect(p?.evidence?.[0]).toContain('takes GRPCRoute, not HTTPRoute')
    expectSays(p?.remediation, 'add kind HTTPRoute to allowedRoutes.kinds of listener http')
  })

  it('offers another listener of the Gateway when the parentRef pins one that refuses', () => {
    const world = baseWorld()
    world.namespaces = world.namespaces.map((n) =>
      n.metadata.name === 'shop'
        ? { ...n, metadata: { ...n.metadata, labels: { team: 'web' } } }
        : n
    )
    const p = problemFor(
      route({}),
      ref('web', { sectionName: 'http' }),
      finding('NotAllowedByListeners', mode),
      world
    )
    expect(p?.title).toBe(
      'Gateway infra/web: listener http does not allow this HTTPRoute from namespace shop'
    )
    expectSays(p?.remediation, 'attach to listener "https" instead')
    expectSays(p?.remediation, 'set sectionName: https')
  })

  it('says when the namespace labels could not be read', () => {
    const world = {
      ...baseWorld(),
      namespaces: [],
      unreadable: ['namespace shop: forbidden (get)']
    }
    const p = problemFor(
      route({}),
      ref('web', { sectionName: 'https' }),
      finding('NotAllowedByListeners', mode),
      world
    )
    expect(p?.evidence).toContain('Could not read namespace shop: forbidden (get).')
    expect(p?.evidence?.[0]).toContain('the labels of namespace shop could not be read')
  })
})

describe.each(MODES)('NoMatchingListenerHostname (%s mode)', (mode) => {
  it('compares the Route hostnames with the listener wildcard and suggests a matching one', () => {
    const world = baseWorld()
    world.namespaces.push({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'shop', labels: { team: 'web' } }
    })
    world.namespaces = world.namespaces.filter(
      (n, i, all) => n.metadata.name !== 'shop' || i === all.length - 1
    )
    const r = route({ hostnames: ['shop.example.org'] })
    const p = problemFor(
      r,
      ref('web', { sectionName: 'https' }),
      finding(
        'NoMatchingListenerHostname',
        mode,
        'no hostnames matched parent hostname "*.example.com"'
      ),
      world
    )
    expect(p?.title).toBe('No listener of Gateway infra/web matches the hostnames shop.example.org')
    expect(p?.evidence).toContain(
      "Listener https (port 443, HTTPS, hostname *.example.com) accepts *.example.com only; none of the Route's hostnames match it."
    )
    expectSays(p?.remediation, 'e.g. shop.example.com')
    expectSays(p?.remediation, 'change the listener hostname to cover shop.example.org')
  })

  it('points at another listener that would accept the hostname', () => {
    const world = baseWorld()
    world.gateways = [
      gateway('infra', 'web', 'istio', [
        {
          name: 'a',
          port: 443,
          protocol: 'HTTPS',
          hostname: 'a.example.com',
          allowedRoutes: { namespaces: { from: 'All' } }
        },
        {
          name: 'b',
          port: 443,
          protocol: 'HTTPS',
          hostname: '*.shop.example.com',
          allowedRoutes: { namespaces: { from: 'All' } }
        }
      ])
    ]
    const r = route({ hostnames: ['www.shop.example.com'] })
    const p = problemFor(
      r,
      ref('web', { sectionName: 'a' }),
      finding('NoMatchingListenerHostname', mode),
      world
    )
    expect(p?.evidence).toContain(
      'Listener b (port 443, HTTPS, hostname *.shop.example.com) would accept www.shop.example.com.'
    )
    expectSays(p?.remediation, 'attach to listener b instead')
    expectSays(p?.remediation, 'e.g. a.example.com')
  })
})

describe.each(MODES)('NoMatchingListenerHostname against the spec (%s mode)', (mode) => {
  it('a hostname that intersects by the spec: the readings disagree, no "change the listener hostname"', () => {
    // a leading *. matches one or more labels by the spec; some implementations take only one
    const r = route({ hostnames: ['a.b.example.com'] })
    const p = problemFor(
      r,
      ref('web', { sectionName: 'https' }),
      finding('NoMatchingListenerHostname', mode)
    )
    expect(p?.title).toBe(
      'The hostnames a.b.example.com intersect listener https (hostname *.example.com) of Gateway infra/web by the spec; Istio (istio.io/gateway-controller) does not accept them'
    )
    expect(p?.evidence).toContain(
      'By the Gateway API rules, listener https (port 443, HTTPS, hostname *.example.com) takes a.b.example.com.'
    )
    expect(p?.remediation).toContain("route-gate's reading and the controller's disagree")
    expect(p?.remediation).not.toMatch(/change the listener hostname/i)
  })
})

describe.each(MODES)('NoMatchingParent (%s mode)', (mode) => {
  it('lists the listeners and the nearest name for a mistyped sectionName', () => {
    const p = problemFor(
      route({}),
      ref('web', { sectionName: 'htps' }),
      finding('NoMatchingParent', mode, 'sectionName "htps" not found')
    )
    expect(p?.title).toBe('The parentRef sectionName htps matches no listener of Gateway infra/web')
    expect(p?.evidence?.[0]).toBe(
      'Gateway infra/web has listeners: http (port 80, HTTP), https (port 443, HTTPS, hostname *.example.com) and passthrough (port 8443, TLS).'
    )
    expectSays(p?.remediation, 'set sectionName to "https"')
  })

  it('lists the ports when no listener has the port', () => {
    const p = problemFor(
      route({}),
      ref('web', { port: 8080 }),
      finding('NoMatchingParent', mode, 'port 8080 not found')
    )
    expect(p?.evidence).toContain('No listener listens on port 8080.')
    expect(p?.remediation).toBe('Set port to one of the listener ports: 80, 443 and 8443.')
  })

  it('says when sectionName and port name different listeners', () => {
    const p = problemFor(
      route({}),
      ref('web', { sectionName: 'https', port: 80 }),
      finding('NoMatchingParent', mode)
    )
    expect(p?.evidence).toContain('Listener https listens on port 443, not 80.')
  })

  it("checks a Service parent's port names", () => {
    const parentRef: ParentRef = {
      group: '',
      kind: 'Service',
      namespace: 'shop',
      name: 'cart',
      sectionName: 'grpc'
    }
    const p = problemFor(route({}), parentRef, finding('NoMatchingParent', mode, ''))
    expect(p?.evidence).toContain('Service shop/cart has ports 8080 (http) and 9090 (metrics).')
    expectSays(p?.remediation, 'set sectionName to a port name of the Service: http and metrics')
  })
})

describe('ListenerSet parents: judged against their own listeners', () => {
  const lsRef = (extra: Partial<ParentRef> = {}): ParentRef => ({
    group: 'gateway.networking.k8s.io',
    kind: 'ListenerSet',
    namespace: 'teams',
    name: 'team-a',
    ...extra
  })
  function withListenerSet(kind = 'ListenerSet', group = 'gateway.networking.k8s.io'): World {
    const world = baseWorld()
    world.namespaces.push(namespace('teams'))
    world.listenerSets = [
      {
        apiVersion: `${group}/v1`,
        kind,
        metadata: { name: 'team-a', namespace: 'teams' },
        spec: {
          parentRef: { name: 'web', namespace: 'infra' },
          listeners: [
            { name: 'team-http', port: 8081, protocol: 'HTTP' },
            {
              name: 'team-all',
              port: 8082,
              protocol: 'HTTP',
              allowedRoutes: { namespaces: { from: 'All' } }
            }
          ]
        }
      }
    ]
    return world
  }

  it("NoMatchingParent lists the ListenerSet's listeners, not the Gateway's", () => {
    const r = route({ parentRefs: [{ kind: 'ListenerSet', name: 'team-a', sectionName: 'http' }] })
    const p = problemFor(
      r,
      lsRef({ sectionName: 'http' }),
      finding('NoMatchingParent', 'live'),
      withListenerSet()
    )
    expect(p?.title).toBe(
      'The parentRef sectionName http matches no listener of ListenerSet teams/team-a'
    )
    expect(p?.evidence).toContain(
      'ListenerSet teams/team-a has listeners: team-http (port 8081, HTTP) and team-all (port 8082, HTTP).'
    )
    expect(p?.evidence).toContain('No listener is named http.')
  })

  it("NotAllowedByListeners reads from: Same as the ListenerSet's namespace", () => {
    const r = route({
      parentRefs: [
        { kind: 'ListenerSet', name: 'team-a', namespace: 'teams', sectionName: 'team-http' }
      ]
    })
    const p = problemFor(
      r,
      lsRef({ sectionName: 'team-http' }),
      finding('NotAllowedByListeners', 'live'),
      withListenerSet()
    )
    expect(p?.title).toBe(
      'ListenerSet teams/team-a: listener team-http does not allow this HTTPRoute from namespace shop'
    )
    expect(p?.evidence).toContain(
      'Listener team-http (port 8081, HTTP) admits Routes from namespace teams only (from: Same); the HTTPRoute is in shop.'
    )
    expectSays(p?.remediation, 'attach to listener "team-all" instead')
    expect(p?.fixes?.[0]?.target).toMatchObject({
      kind: 'ListenerSet',
      namespace: 'teams',
      name: 'team-a'
    })
    expect(fixedListener(p, 'team-http')?.allowedRoutes).toEqual({
      namespaces: byName('teams', 'shop')
    })
  })

  it('reads an XListenerSet of the experimental group the same way', () => {
    const ref = lsRef({ group: 'gateway.networking.x-k8s.io', kind: 'XListenerSet', port: 9999 })
    const p = problemFor(
      route({ parentRefs: [] }),
      ref,
      finding('NoMatchingParent', 'live'),
      withListenerSet('XListenerSet', 'gateway.networking.x-k8s.io')
    )
    expect(p?.evidence).toContain('No listener listens on port 9999.')
    expect(p?.title).toContain('XListenerSet teams/team-a')
  })

  it('says the ListenerSet does not exist, or that it could not be read', () => {
    const missing = problemFor(
      route({ parentRefs: [] }),
      lsRef({ name: 'team-b' }),
      finding('NoMatchingParent', 'live'),
      withListenerSet()
    )
    expect(missing?.evidence).toContain('ListenerSet teams/team-b does not exist.')
    const world = withListenerSet()
    world.listenerSets = []
    world.unreadable = ['listenersets in all namespaces: forbidden (list)']
    const blind = problemFor(
      route({ parentRefs: [] }),
      lsRef(),
      finding('NoMatchingParent', 'live'),
      world
    )
    expect(blind?.evidence).toEqual([
      'Could not read listenersets in all namespaces: forbidden (list).',
      'Whether ListenerSet teams/team-a exists could not be checked.'
    ])
  })
})

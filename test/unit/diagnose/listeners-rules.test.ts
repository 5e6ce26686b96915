// The listener admission rules behind NotAllowedByListeners, NoMatchingListenerHostname and
// NoMatchingParent, tested through the gatherers with the contexts explainRoute hands them: which
// listener refuses and why (from: Same/All/Selector, kinds, supportedKinds), what to change (the kubectl
// label line, the Gateway YAML, the sectionName), and when route-gate's reading contradicts the status.
import { describe, expect, it } from 'vitest'
import type { DiagnosisContext } from '../../../src/diagnose/context.ts'
import { explainNoMatchingListenerHostname } from '../../../src/diagnose/listener-hostnames.ts'
import { explainNoMatchingParent } from '../../../src/diagnose/no-matching-parent.ts'
import {
  explainNotAllowedByListeners,
  refuteNotAllowedByListeners
} from '../../../src/diagnose/listeners.ts'
import type { ParentRef, RouteKind, RouteObject, World } from '../../../src/model/types.ts'
import {
  baseWorld,
  fromAll,
  fromSelector,
  gateway,
  listener,
  listenerStatus,
  namespace,
  openListener,
  parentVerdict,
  ref,
  route,
  service
} from '../../fixtures/diagnose/world.ts'
import { byName, fixText, fixedListener } from '../../helpers/fixes.ts'

const ISTIO = 'istio.io/gateway-controller'

function context(
  r: RouteObject,
  parentRef: ParentRef | undefined,
  reason: string,
  world: World = baseWorld()
): DiagnosisContext {
  const finding = {
    condition: 'Accepted',
    reason,
    severity: 'error' as const,
    controllerName: ISTIO
  }
  return {
    route: r,
    world,
    finding,
    ...(parentRef ? { parent: parentVerdict({ parentRef, finding }) } : {})
  }
}

/** A Route in `ns` (the fixtures put Routes in shop). */
function routeIn(ns: string, spec: Record<string, unknown> = {}, kind: RouteKind = 'HTTPRoute') {
  const r = route(spec, kind)
  return { ...r, metadata: { ...r.metadata, namespace: ns } }
}

function withGateway(listeners: unknown[], status?: unknown, world: World = baseWorld()): World {
  world.gateways = [gateway('infra', 'edge', 'istio', listeners, status)]
  return world
}

const notAllowed = (r: RouteObject, parentRef: ParentRef, world?: World) =>
  explainNotAllowedByListeners(context(r, parentRef, 'NotAllowedByListeners', world))
const refute = (r: RouteObject, parentRef: ParentRef, world?: World) =>
  refuteNotAllowedByListeners(context(r, parentRef, 'NotAllowedByListeners', world))

// from: Same admitted infra: the change admits infra and shop by name, so no Route of infra loses it
const SAME_FIX = [
  expect.objectContaining({
    action: 'patch',
    target: {
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'Gateway',
      namespace: 'infra',
      name: 'web'
    }
  })
]

describe('NotAllowedByListeners: allowedRoutes.namespaces', () => {
  it('from: Same refuses a Route of another namespace: no kubectl label, the Gateway change and its YAML', () => {
    const d = notAllowed(route({}), ref('web', { sectionName: 'http' }))
    expect(d).toEqual({
      title: 'Gateway infra/web: listener http does not allow this HTTPRoute from namespace shop',
      evidence: [
        'Listener http (port 80, HTTP) admits Routes from namespace infra only (from: Same); the HTTPRoute is in shop.'
      ],
      remediation:
        'Change listener http of Gateway infra/web to admit namespace shop beside the namespace infra it admits today (the YAML below admits both by name).',
      fixes: SAME_FIX
    })
    expect(fixedListener(d, 'http')?.allowedRoutes).toEqual({ namespaces: byName('infra', 'shop') })
    // the Gateway's other listeners stay as they are
    expect(fixedListener(d, 'https')?.allowedRoutes).toEqual({
      namespaces: { from: 'Selector', selector: { matchLabels: { team: 'web' } } }
    })
  })

  it('from: Same admits a Route of the Gateway namespace: the spec contradicts the condition', () => {
    const r = routeIn('infra')
    const d = notAllowed(r, ref('web', { sectionName: 'http' }))
    expect(d).toEqual({
      title: 'Gateway infra/web does not allow this HTTPRoute',
      evidence: [
        'By their spec, the selected listeners (http) admit this HTTPRoute: the condition may predate a Gateway or Namespace change, or the controller also refuses listeners that are not ready (see the listener conditions).'
      ]
    })
    expect(refute(r, ref('web', { sectionName: 'http' }))).toEqual([
      'By its spec, listener http (port 80, HTTP) of Gateway infra/web admits this HTTPRoute from namespace infra.'
    ])
  })

  it('from: All admits any namespace, even one whose labels could not be read', () => {
    const world = { ...baseWorld(), namespaces: [], unreadable: ['namespaces: forbidden (list)'] }
    const parentRef = ref('internal')
    const d = notAllowed(route({}), parentRef, world)
    expect(d.evidence).toEqual([
      'By their spec, the selected listeners (http) admit this HTTPRoute: the condition may predate a Gateway or Namespace change, or the controller also refuses listeners that are not ready (see the listener conditions).'
    ])
    expect(refute(route({}), parentRef, world)).toEqual([
      'By its spec, listener http (port 8080, HTTP) of Gateway infra/internal admits this HTTPRoute from namespace shop.'
    ])
  })

  it('from: Selector with a label the namespace lacks: kubectl label without --overwrite', () => {
    const world = baseWorld()
    world.namespaces = [namespace('infra'), namespace('shop')]
    const d = notAllowed(route({}), ref('web', { sectionName: 'https' }), world)
    expect(d).toEqual({
      title: 'Gateway infra/web: listener https does not allow this HTTPRoute from namespace shop',
      evidence: [
        'Listener https (port 443, HTTPS, hostname *.example.com) admits namespaces matching team=web; namespace shop does not match: label team=web is missing.'
      ],
      remediation: 'Label namespace shop team=web (the fix below).',
      fixes: [
        {
          action: 'patch',
          target: { apiVersion: 'v1', kind: 'Namespace', name: 'shop' },
          // the whole Namespace as it should read: its labels kept, team=web added
          object: {
            apiVersion: 'v1',
            kind: 'Namespace',
            metadata: {
              name: 'shop',
              labels: { ...world.namespaces[1]?.metadata.labels, team: 'web' }
            }
          },
          command: 'kubectl label namespace shop team=web'
        }
      ]
    })
  })

  it('a namespace written without labels (a hand-written dump) still gets its kubectl label line', () => {
    const world = baseWorld()
    world.namespaces = [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } }]
    const d = notAllowed(route({}), ref('web', { sectionName: 'https' }), world)
    expect(d.fixes?.[0]?.command).toBe('kubectl label namespace shop team=web')
  })

  it('from: Selector with several unmet requirements: all of them, and --overwrite when one label exists', () => {
    const world = withGateway([
      listener('https', 443, 'HTTPS', {
        allowedRoutes: {
          namespaces: {
            from: 'Selector',
            selector: {
              matchLabels: { team: 'web' },
              matchExpressions: [{ key: 'env', operator: 'In', values: ['prod', 'staging'] }]
            }
          }
        }
      })
    ])
    const d = notAllowed(route({}), ref('edge'), world)
    expect(d.evidence).toEqual([
      'Listener https (port 443, HTTPS) admits namespaces matching team=web, env In (prod, staging); namespace shop does not match: label team is "shop", not "web"; label env must be one of (prod, staging); it is not set.'
    ])
    expect(d.remediation).toContain('Label namespace shop team=web, env=prod (the fix below)')
    expect(d.fixes?.[0]?.command).toBe('kubectl label namespace shop team=web env=prod --overwrite')
  })

  it('a label to remove (DoesNotExist) never needs --overwrite', () => {
    const world = withGateway([
      listener('https', 443, 'HTTPS', {
        allowedRoutes: {
          namespaces: {
            from: 'Selector',
            selector: { matchExpressions: [{ key: 'legacy', operator: 'DoesNotExist' }] }
          }
        }
      })
    ])
    world.namespaces = [namespace('infra'), namespace('shop', { legacy: 'true' })]
    const d = notAllowed(route({}), ref('edge'), world)
    expect(d.remediation).toContain('Label namespace shop without legacy (the fix below)')
    expect(d.fixes?.[0]?.command).toBe('kubectl label namespace shop legacy-')
    expect(d.fixes?.[0]?.object?.metadata.labels).not.toHaveProperty('legacy')
  })

  it('a selector on kubernetes.io/metadata.name cannot be met by labelling: only the Gateway change', () => {
    const world = withGateway([
      listener('https', 443, 'HTTPS', {
        allowedRoutes: fromSelector({ team: 'web', 'kubernetes.io/metadata.name': 'storefront' })
      })
    ])
    const d = notAllowed(route({}), ref('edge'), world)
    expect(d.remediation).toBe(
      'Change the selector of listener https of Gateway infra/edge so that it also matches namespace shop; a new selector replaces the old one, so first list the namespaces the old one admits, or their Routes lose the listener.'
    )
    // this selector also requires team=web: no YAML can add shop without guessing which namespaces it keeps
    expect(fixText(d)).toBeUndefined()
  })

  it('namespace labels that could not be read: says so, with the blind spot, and no contradiction', () => {
    const world = {
      ...baseWorld(),
      namespaces: [namespace('infra')],
      unreadable: ['namespace shop: forbidden (get)']
    }
    const parentRef = ref('web', { sectionName: 'https' })
    const d = notAllowed(route({}), parentRef, world)
    expect(d).toEqual({
      title: 'Gateway infra/web does not allow this HTTPRoute',
      evidence: [
        'Listener https (port 443, HTTPS, hostname *.example.com) admits namespaces matching team=web; the labels of namespace shop could not be read.',
        'Could not read namespace shop: forbidden (get).'
      ]
    })
    expect(refute(route({}), parentRef, world)).toEqual([])
  })

  it('an unknown from value is reported but not held against the Route, nor taken as a contradiction', () => {
    const world = withGateway([
      listener('http', 80, 'HTTP', { allowedRoutes: { namespaces: { from: 'Mesh' } } })
    ])
    const d = notAllowed(route({}), ref('edge'), world)
    expect(d.evidence[0]).toBe(
      'Listener http (port 80, HTTP) has allowedRoutes.namespaces.from: Mesh, which is not All, Same or Selector.'
    )
    expect(d.title).toBe('Gateway infra/edge does not allow this HTTPRoute')
    expect(refute(route({}), ref('edge'), world)).toEqual([])
  })

  it('a listener its controller refused (Accepted=False) admits nothing: named as evidence, not taken as a contradiction', () => {
    const refused = {
      ...listenerStatus('http', ['HTTPRoute']),
      conditions: [
        {
          type: 'Accepted',
          status: 'False',
          reason: 'PortUnavailable',
          message: 'Cannot find entryPoint for Gateway'
        }
      ]
    }
    const world = withGateway([openListener('http', 9999, 'HTTP')], { listeners: [refused] })
    const d = notAllowed(route({}), ref('edge'), world)
    expect(d.evidence).toContain(
      'Listener http (port 9999, HTTP) was refused by its controller (Accepted=False, PortUnavailable: Cannot find entryPoint for Gateway), so it admits no Route.'
    )
    expect(refute(route({}), ref('edge'), world)).toEqual([])
  })

  it('a dump without Namespaces is not blamed for a from: Same refusal', () => {
    const world: World = { ...baseWorld(), namespaces: [], partial: true }
    const d = notAllowed(route({}), ref('web', { sectionName: 'http' }), world)
    expect(d.evidence).toEqual([
      'Listener http (port 80, HTTP) admits Routes from namespace infra only (from: Same); the HTTPRoute is in shop.'
    ])
  })
})

describe('NotAllowedByListeners: several selected listeners', () => {
  // tls refuses the namespace and the kind, team the namespace by its selector, http by from: Same
  const listeners = [
    listener('tls', 443, 'TLS', { tls: { mode: 'Passthrough' } }),
    listener('team', 8080, 'HTTP', { allowedRoutes: fromSelector({ team: 'web' }) }),
    listener('http', 80, 'HTTP', { allowedRoutes: { namespaces: { from: 'Same' } } })
  ]

  it('names every refusing listener, and changes the from: Same one', () => {
    const d = notAllowed(route({}), ref('edge'), withGateway(listeners))
    expect(d.title).toBe(
      'Gateway infra/edge: listeners tls, team and http do not allow this HTTPRoute from namespace shop'
    )
    expect(d.evidence).toEqual([
      'Listener tls (port 443, TLS) admits Routes from namespace infra only (from: Same); the HTTPRoute is in shop.',
      'Listener tls (port 443, TLS) takes TLSRoute and TCPRoute, not HTTPRoute.',
      'Listener team (port 8080, HTTP) admits namespaces matching team=web; namespace shop does not match: label team is "shop", not "web".',
      'Listener http (port 80, HTTP) admits Routes from namespace infra only (from: Same); the HTTPRoute is in shop.'
    ])
    expect(d.remediation).toBe(
      'Label namespace shop team=web (the fix below); or change listener http of Gateway infra/edge to admit namespace shop beside the namespace infra it admits today (the YAML below admits both by name); or attach the HTTPRoute to a listener whose protocol supports it (listener tls is TLS).'
    )
    // the label first, then the Gateway with listener http admitting both; team keeps its selector
    expect(d.fixes?.map((f) => `${f.action} ${f.target.kind}`)).toEqual([
      'patch Namespace',
      'patch Gateway'
    ])
    expect(fixedListener(d, 'http')?.allowedRoutes).toEqual({ namespaces: byName('infra', 'shop') })
    expect(fixedListener(d, 'team')?.allowedRoutes).toEqual(fromSelector({ team: 'web' }))
  })

  it('a listener refusing the kind is not fixed by relabelling the namespace', () => {
    const world = withGateway([
      listener('tls', 443, 'TLS', { allowedRoutes: fromSelector({ team: 'web' }) })
    ])
    const d = notAllowed(route({}), ref('edge'), world)
    expect(d.remediation).toBe(
      'Attach the HTTPRoute to a listener whose protocol supports it (listener tls is TLS).'
    )
    expect(fixText(d)).toBeUndefined()
  })

  it('selected by port: no contradiction while one listener refuses, or one could not read the namespace', () => {
    const open = openListener('open', 443, 'HTTPS', { hostname: 'open.example.com' })
    const same = listener('same', 443, 'HTTPS', { hostname: 'same.example.com' })
    const selector = listener('team', 443, 'HTTPS', {
      hostname: 'team.example.com',
      allowedRoutes: fromSelector({ team: 'web' })
    })
    const refusing = notAllowed(route({}), ref('edge', { port: 443 }), withGateway([open, same]))
    expect(refusing.title).toBe(
      'Gateway infra/edge: listener same does not allow this HTTPRoute from namespace shop'
    )
    expect(refusing.evidence.join(' ')).not.toContain('By their spec')
    const world = withGateway([open, selector])
    world.namespaces = [namespace('infra')]
    world.unreadable = ['namespace shop: forbidden (get)']
    const unknown = notAllowed(route({}), ref('edge', { port: 443 }), world)
    expect(unknown.evidence).toEqual([
      'Listener team (port 443, HTTPS, hostname team.example.com) admits namespaces matching team=web; the labels of namespace shop could not be read.',
      'Could not read namespace shop: forbidden (get).'
    ])
  })

  it('selected by port: the blind spot is said when one of them could not read its namespace', () => {
    const world = withGateway([
      listener('a', 443, 'HTTPS', { hostname: 'a.example.com' }),
      listener('b', 443, 'HTTPS', {
        hostname: 'b.example.com',
        allowedRoutes: fromSelector({ team: 'web' })
      })
    ])
    world.namespaces = [namespace('infra')]
    world.unreadable = ['namespace shop: forbidden (get)']
    const d = notAllowed(route({}), ref('edge', { port: 443 }), world)
    expect(d.evidence).toContain('Could not read namespace shop: forbidden (get).')
    expect(d.title).toBe(
      'Gateway infra/edge: listener a does not allow this HTTPRoute from namespace shop'
    )
  })
})

describe('NotAllowedByListeners: kinds', () => {
  it('a TLS listener takes TLSRoute and TCPRoute only: attach elsewhere, not "add kind"', () => {
    const d = notAllowed(route({}), ref('web', { sectionName: 'passthrough' }))
    expect(d).toEqual({
      title: 'Gateway infra/web: listener passthrough does not take kind HTTPRoute',
      evidence: ['Listener passthrough (port 8443, TLS) takes TLSRoute, not HTTPRoute.'],
      remediation:
        'Attach the HTTPRoute to a listener whose protocol supports it (listener passthrough is TLS).'
    })
  })

  it('allowedRoutes.kinds narrower than the protocol: add the kind', () => {
    const world = withGateway([
      listener('grpc', 80, 'HTTP', { allowedRoutes: fromAll([{ kind: 'GRPCRoute' }]) })
    ])
    const d = notAllowed(route({}), ref('edge'), world)
    expect(d.evidence).toEqual(['Listener grpc (port 80, HTTP) takes GRPCRoute, not HTTPRoute.'])
    expect(d.remediation).toBe('Add kind HTTPRoute to allowedRoutes.kinds of listener grpc.')
    // the namespace is admitted: the title names the kind, never the namespace
    expect(d.title).toBe('Gateway infra/edge: listener grpc does not take kind HTTPRoute')
  })

  it('a kind of another API group in allowedRoutes.kinds does not admit the Gateway API kind', () => {
    const world = withGateway([
      listener('http', 80, 'HTTP', {
        allowedRoutes: fromAll([{ group: 'networking.example.io', kind: 'HTTPRoute' }])
      })
    ])
    const d = notAllowed(route({}), ref('edge'), world)
    expect(d.evidence).toEqual([
      'Listener http (port 80, HTTP) takes no Route kind, not HTTPRoute.'
    ])
    expect(d.remediation).toBe('Add kind HTTPRoute to allowedRoutes.kinds of listener http.')
  })

  it("reads the selected listener's own supportedKinds, not another listener's", () => {
    // allowedRoutes.kinds names TCPRoute, which HTTP cannot carry: the controller drops it from
    // supportedKinds (InvalidRouteKinds), so a TCPRoute is refused
    const world = withGateway(
      [
        openListener('web', 8080, 'HTTP'),
        listener('http', 80, 'HTTP', {
          allowedRoutes: fromAll([{ kind: 'HTTPRoute' }, { kind: 'TCPRoute' }])
        })
      ],
      {
        listeners: [
          listenerStatus('web', ['HTTPRoute', 'GRPCRoute'], 1),
          listenerStatus('http', ['HTTPRoute'])
        ]
      }
    )
    const r = route({}, 'TCPRoute')
    const d = notAllowed(r, ref('edge', { sectionName: 'http' }), world)
    expect(d.evidence).toEqual(['Listener http (port 80, HTTP) takes HTTPRoute, not TCPRoute.'])
    expect(d.remediation).toBe(
      'Attach the TCPRoute to a listener whose protocol supports it (listener http is HTTP).'
    )
  })

  it('supportedKinds written empty: the listener takes no Route kind', () => {
    const world = withGateway(
      [listener('http', 80, 'HTTP', { allowedRoutes: fromAll([{ kind: 'TCPRoute' }]) })],
      { listeners: [listenerStatus('http', [])] }
    )
    const d = notAllowed(route({}), ref('edge'), world)
    expect(d.evidence).toEqual([
      'Listener http (port 80, HTTP) takes no Route kind, not HTTPRoute.'
    ])
  })

  it('a vendor protocol with no supportedKinds is not held against the Route', () => {
    const world = withGateway([openListener('mesh', 15008, 'HBONE')])
    expect(refute(route({}), ref('edge'), world)).toEqual([
      'By its spec, listener mesh (port 15008, HBONE) of Gateway infra/edge admits this HTTPRoute from namespace shop.'
    ])
  })

  it('a vendor protocol whose allowedRoutes.kinds leave the kind out: attach elsewhere', () => {
    const world = withGateway([
      listener('mesh', 15008, 'HBONE', { allowedRoutes: fromAll([{ kind: 'TCPRoute' }]) })
    ])
    const d = notAllowed(route({}), ref('edge'), world)
    expect(d.remediation).toBe(
      'Attach the HTTPRoute to a listener whose protocol supports it (listener mesh is HBONE).'
    )
  })
})

describe('NotAllowedByListeners: another listener, no listener, no Gateway', () => {
  it('offers the one listener that would admit the Route when a sectionName pins a refusing one', () => {
    const world = baseWorld()
    world.namespaces = [namespace('infra'), namespace('shop', { team: 'web' })]
    const d = notAllowed(route({}), ref('web', { sectionName: 'http' }), world)
    expect(d.remediation).toBe(
      'Change listener http of Gateway infra/web to admit namespace shop beside the namespace infra it admits today (the YAML below admits both by name); or attach to listener "https" instead, which admits this HTTPRoute (set sectionName: https in the parentRef).'
    )
  })

  it('offers another listener when a port pins the refusing one, with its port (sectionName alone would select nothing)', () => {
    const world = withGateway([listener('http', 80, 'HTTP'), openListener('open', 8080, 'HTTP')])
    const d = notAllowed(route({}), ref('edge', { port: 80 }), world)
    expect(d.remediation).toContain(
      'attach to listener "open" instead, which admits this HTTPRoute (set sectionName: open and port: 8080 in the parentRef)'
    )
  })

  it('a sectionName naming no listener: the parentRef selects none', () => {
    const d = notAllowed(route({}), ref('web', { sectionName: 'grpc' }))
    expect(d).toEqual({
      title: 'Gateway infra/web does not allow this HTTPRoute',
      evidence: ['The parentRef selects no listener of Gateway infra/web.']
    })
  })

  it('a Gateway that does not exist: its lookup diagnosis, and nothing to refute', () => {
    const d = notAllowed(route({}), ref('gone'))
    expect(d.title).toContain('Gateway infra/gone')
    expect(refute(route({}), ref('gone'))).toEqual([])
  })

  it('a Service parent (a mesh) has no listeners to check', () => {
    const parentRef: ParentRef = { group: '', kind: 'Service', namespace: 'shop', name: 'cart' }
    expect(notAllowed(route({}), parentRef)).toEqual({
      evidence: ['The parent is a Service; it has no Gateway listeners to check.']
    })
    expect(refute(route({}), parentRef)).toEqual([])
  })

  it('a route-level finding (no parent) gets no listener evidence', () => {
    const c = context(route({}), undefined, 'NotAllowedByListeners')
    expect(explainNotAllowedByListeners(c)).toEqual({ evidence: [] })
    expect(explainNoMatchingParent(c)).toEqual({ evidence: [] })
  })
})

const noHostname = (r: RouteObject, parentRef: ParentRef, world?: World) =>
  explainNoMatchingListenerHostname(context(r, parentRef, 'NoMatchingListenerHostname', world))

describe('NoMatchingListenerHostname', () => {
  it('an exact listener hostname: suggests it, and the listener change for the first Route hostname', () => {
    const world = withGateway([openListener('api', 443, 'HTTPS', { hostname: 'api.example.com' })])
    const d = noHostname(
      route({ hostnames: ['shop.example.org', 'www.example.org'] }),
      ref('edge'),
      world
    )
    expect(d).toEqual({
      title:
        'No listener of Gateway infra/edge matches the hostnames shop.example.org and www.example.org',
      evidence: [
        "The HTTPRoute's hostnames: shop.example.org and www.example.org.",
        "Listener api (port 443, HTTPS, hostname api.example.com) accepts api.example.com only; none of the Route's hostnames match it."
      ],
      remediation:
        'Add a hostname that listener api accepts to spec.hostnames, e.g. api.example.com; or change the listener hostname to cover shop.example.org.'
    })
  })

  it('only the listeners that admit the Route are compared when one does', () => {
    const world = withGateway([
      listener('a', 443, 'HTTPS', { hostname: 'a.example.com' }),
      openListener('b', 443, 'HTTPS', { hostname: 'b.example.com' })
    ])
    const d = noHostname(
      route({ hostnames: ['shop.example.org'] }),
      ref('edge', { port: 443 }),
      world
    )
    expect(d.evidence).toEqual([
      "The HTTPRoute's hostnames: shop.example.org.",
      "Listener b (port 443, HTTPS, hostname b.example.com) accepts b.example.com only; none of the Route's hostnames match it."
    ])
    expect(d.remediation).toContain('listener b accepts to spec.hostnames, e.g. b.example.com;')
  })

  it('every selected listener is compared when none admits the Route', () => {
    const world = withGateway([
      listener('a', 443, 'HTTPS', { hostname: 'a.example.com' }),
      listener('b', 443, 'HTTPS', { hostname: 'b.example.com' })
    ])
    const d = noHostname(
      route({ hostnames: ['shop.example.org'] }),
      ref('edge', { port: 443 }),
      world
    )
    expect(d.remediation).toContain(
      'listener a and b accepts to spec.hostnames, e.g. a.example.com and b.example.com;'
    )
  })

  it('points at a listener the parentRef does not select that admits the Route and takes the hostname', () => {
    const world = withGateway([
      openListener('a', 443, 'HTTPS', { hostname: 'a.example.com' }),
      // takes the hostname but refuses namespace shop
      listener('b', 443, 'HTTPS', { hostname: '*.shop.example.com' }),
      openListener('c', 443, 'HTTPS', { hostname: '*.example.com' }),
      // admits the Route but not the hostname
      openListener('d', 443, 'HTTPS', { hostname: '*.example.org' })
    ])
    const d = noHostname(
      route({ hostnames: ['www.shop.example.com'] }),
      ref('edge', { sectionName: 'a' }),
      world
    )
    expect(d.evidence).toEqual([
      "The HTTPRoute's hostnames: www.shop.example.com.",
      "Listener a (port 443, HTTPS, hostname a.example.com) accepts a.example.com only; none of the Route's hostnames match it.",
      'Listener c (port 443, HTTPS, hostname *.example.com) would accept www.shop.example.com.'
    ])
    expect(d.remediation).toBe(
      'Add a hostname that listener a accepts to spec.hostnames, e.g. a.example.com; or change the listener hostname to cover www.shop.example.com; or attach to listener c instead (set sectionName: c in the parentRef).'
    )
  })

  it('a listener on another port: the parentRef port moves with the sectionName', () => {
    const world = withGateway([
      openListener('a', 443, 'HTTPS', { hostname: 'a.example.com' }),
      openListener('shop', 8443, 'HTTPS', { hostname: '*.example.com' })
    ])
    const d = noHostname(
      route({ hostnames: ['shop.example.com'] }),
      ref('edge', { port: 443 }),
      world
    )
    expect(d.remediation).toContain(
      'attach to listener shop instead (set sectionName: shop and port: 8443 in the parentRef)'
    )
  })

  it('a listener on the same port as the parentRef: only the sectionName to set', () => {
    const world = withGateway([
      openListener('a', 443, 'HTTPS', { hostname: 'a.example.com' }),
      openListener('shop', 443, 'HTTPS', { hostname: '*.example.com' })
    ])
    const d = noHostname(
      route({ hostnames: ['shop.example.com'] }),
      ref('edge', { sectionName: 'a', port: 443 }),
      world
    )
    expect(d.remediation).toContain(
      'attach to listener shop instead (set sectionName: shop in the parentRef)'
    )
  })

  it('the spec and the controller disagree when a selected listener sets no hostname', () => {
    const world = withGateway([openListener('http', 80, 'HTTP')])
    const c = context(
      route({ hostnames: ['shop.example.com'] }),
      ref('edge'),
      'NoMatchingListenerHostname',
      world
    )
    delete c.finding.controllerName
    const d = explainNoMatchingListenerHostname(c)
    expect(d.title).toBe(
      'The hostnames shop.example.com intersect listener http (no hostname: any) of Gateway infra/edge by the spec; Istio (istio.io/gateway-controller) does not accept them'
    )
    expect(d.evidence).toEqual([
      "The HTTPRoute's hostnames: shop.example.com.",
      'Listener http (port 80, HTTP) sets no hostname, so it matches any hostname.',
      'By the Gateway API rules, listener http (port 80, HTTP) takes shop.example.com.'
    ])
    expect(d.remediation).not.toMatch(/change the listener hostname/i)
  })

  it('a parentRef that selects no listener and a Route without hostnames: nothing to suggest', () => {
    expect(noHostname(route({}), ref('web', { sectionName: 'grpc' }))).toEqual({
      title: 'No listener of Gateway infra/web matches the hostnames (none)',
      evidence: ['The HTTPRoute sets no hostnames.']
    })
  })

  it('a Gateway that does not exist: its lookup diagnosis', () => {
    expect(noHostname(route({ hostnames: ['a.example.com'] }), ref('gone')).title).toContain(
      'Gateway infra/gone'
    )
  })
})

const noParent = (r: RouteObject, parentRef: ParentRef, world?: World) =>
  explainNoMatchingParent(context(r, parentRef, 'NoMatchingParent', world))

describe('NoMatchingParent: Gateway listeners', () => {
  it('a mistyped sectionName: the nearest listener that takes the kind, and nothing about ports', () => {
    const world = withGateway([listener('http', 80, 'HTTP'), listener('tcp', 5432, 'TCP')])
    expect(noParent(route({}), ref('edge', { sectionName: 'htp' }), world)).toEqual({
      title: 'The parentRef sectionName htp matches no listener of Gateway infra/edge',
      evidence: [
        'Gateway infra/edge has listeners: http (port 80, HTTP) and tcp (port 5432, TCP).',
        'No listener is named htp.'
      ],
      remediation: 'Set sectionName to "http" (the nearest listener name).'
    })
  })

  it('no listener takes the kind: the nearest of all names', () => {
    const world = withGateway([listener('http', 80, 'HTTP'), listener('https', 443, 'HTTPS')])
    const d = noParent(route({}, 'TCPRoute'), ref('edge', { sectionName: 'htps' }), world)
    expect(d.remediation).toBe('Set sectionName to "https" or "http" (the nearest listener name).')
  })

  it('no name is near: every listener name', () => {
    const d = noParent(route({}), ref('web', { sectionName: 'grpc-public' }))
    expect(d.remediation).toBe(
      'Set sectionName to one of the listener names: http, https and passthrough.'
    )
  })

  it('a wrong sectionName with a port some listener has: only the name is wrong', () => {
    const d = noParent(route({}), ref('web', { sectionName: 'htps', port: 443 }))
    expect(d.title).toBe(
      'The parentRef sectionName htps and port 443 matches no listener of Gateway infra/web'
    )
    expect(d.evidence).toEqual([
      'Gateway infra/web has listeners: http (port 80, HTTP), https (port 443, HTTPS, hostname *.example.com) and passthrough (port 8443, TLS).',
      'No listener is named htps.'
    ])
  })

  it('a wrong sectionName and a port no listener has: both fixes', () => {
    expect(noParent(route({}), ref('web', { sectionName: 'htps', port: 8080 })).remediation).toBe(
      'Set sectionName to "https" or "http" (the nearest listener name); and set port to one of the listener ports: 80, 443 and 8443.'
    )
  })

  it('sectionName and port of two different listeners: the named listener port', () => {
    const d = noParent(route({}), ref('web', { sectionName: 'https', port: 80 }))
    expect(d.evidence.slice(1)).toEqual(['Listener https listens on port 443, not 80.'])
    expect(d.remediation).toBe('Set port to 443 or drop it.')
  })

  it('sectionName and port of the same listener: nothing wrong by the spec', () => {
    const d = noParent(route({}), ref('web', { sectionName: 'https', port: 443 }))
    expect(d.evidence).toHaveLength(1)
    expect(d.remediation).toBeUndefined()
  })

  it('a port no listener has: the listener ports', () => {
    const d = noParent(route({}), ref('web', { port: 8080 }))
    expect(d.title).toBe('The parentRef port 8080 matches no listener of Gateway infra/web')
    expect(d.evidence.slice(1)).toEqual(['No listener listens on port 8080.'])
  })

  it('a parentRef without sectionName or port', () => {
    const d = noParent(route({}), ref('web'))
    expect(d.title).toBe(
      'The parentRef to Gateway infra/web matches no listener of Gateway infra/web'
    )
    expect(d.remediation).toBeUndefined()
  })

  it('a Gateway that does not exist: its lookup diagnosis', () => {
    expect(noParent(route({}), ref('gone', { sectionName: 'http' })).title).toContain(
      'Gateway infra/gone'
    )
  })
})

describe('NoMatchingParent: Service parents (GAMMA)', () => {
  const svcRef = (name: string, extra: Partial<ParentRef> = {}): ParentRef => ({
    group: '',
    kind: 'Service',
    namespace: 'shop',
    name,
    ...extra
  })

  it('a Service that does not exist: the nearest Service name', () => {
    expect(noParent(route({}), svcRef('carts'))).toEqual({
      title: 'Service shop/carts named by the parentRef does not exist',
      remediation:
        'Set the parentRef name to "cart" (the nearest Service), or create Service shop/carts.',
      evidence: ['Service shop/carts does not exist.']
    })
  })

  it('a Service that does not exist and no near name; Services of other namespaces do not count', () => {
    const d = noParent(route({}), svcRef('payment'))
    expect(d.remediation).toBe('Create Service shop/payment or fix the parentRef name.')
  })

  it('Services that could not be read: only the blind spot', () => {
    const world = { ...baseWorld(), unreadable: ['services in namespace shop: forbidden (list)'] }
    expect(noParent(route({}), svcRef('carts'), world)).toEqual({
      evidence: ['Could not read services in namespace shop: forbidden (list).']
    })
  })

  it('a port the Service does not have', () => {
    const d = noParent(route({}), svcRef('cart', { port: 80 }))
    expect(d).toEqual({
      title: 'The parentRef matches no port of Service shop/cart',
      evidence: ['Service shop/cart has ports 8080 (http) and 9090 (metrics).'],
      remediation: 'Set port to one of 8080 and 9090.'
    })
  })

  it('a port name and a port the Service does not have: both fixes', () => {
    expect(noParent(route({}), svcRef('cart', { sectionName: 'grpc', port: 80 })).remediation).toBe(
      'Set sectionName to a port name of the Service: http and metrics; and set port to one of 8080 and 9090.'
    )
  })

  it('a port and a port name the Service has: nothing to change', () => {
    const d = noParent(route({}), svcRef('cart', { port: 8080, sectionName: 'http' }))
    expect(d.remediation).toBeUndefined()
  })

  it('a sectionName on a Service whose ports have no names', () => {
    const world = baseWorld()
    world.services.push(service('shop', 'search', [{ port: 80 }]))
    const d = noParent(route({}), svcRef('search', { sectionName: 'http' }), world)
    expect(d.remediation).toBe(
      'Set sectionName to a port name of the Service (its ports have no names).'
    )
  })

  it('a headless Service is said to be one', () => {
    const world = baseWorld()
    world.services.push(service('shop', 'db', [{ name: 'pg', port: 5432 }], { clusterIP: 'None' }))
    const d = noParent(route({}), svcRef('db', { sectionName: 'pg' }), world)
    expect(d.evidence).toEqual([
      'Service shop/db has ports 5432 (pg).',
      'Service shop/db is headless (clusterIP: None); meshes accept only ClusterIP Services as parents.'
    ])
    const plain = noParent(route({}), svcRef('checkout', { sectionName: 'http' }))
    expect(plain.evidence).toEqual(['Service shop/checkout has ports 80 (http).'])
  })
})

describe('findings the spec does not explain', () => {
  it('NoMatchingListenerHostname for a Route without hostnames: by the spec it takes any listener hostname', () => {
    const d = noHostname(route({}), ref('web', { sectionName: 'https' }))
    expect(d.title).toBe(
      'The hostnames (none: any hostname) intersect listener https (hostname *.example.com) of Gateway infra/web by the spec; Istio (istio.io/gateway-controller) does not accept them'
    )
    expect(d.evidence).toEqual([
      'The HTTPRoute sets no hostnames.',
      'By the Gateway API rules, listener https (port 443, HTTPS, hostname *.example.com) takes the Route, which sets no hostnames.'
    ])
    expect(d.remediation).not.toMatch(/spec\.hostnames|change the listener hostname/i)
  })

  it('a kind the protocol carries but the controller does not support, with no allowedRoutes.kinds: never "add kind"', () => {
    const world = (supportedKinds: string[]) =>
      withGateway([openListener('http', 80, 'HTTP')], {
        listeners: [listenerStatus('http', supportedKinds)]
      })
    const grpc = route({}, 'GRPCRoute')
    expect(notAllowed(grpc, ref('edge'), world(['HTTPRoute'])).remediation).toBe(
      'Attach the GRPCRoute to a listener that takes it, or use a controller that supports GRPCRoute: the controller lists only HTTPRoute in status.listeners[name=http].supportedKinds, though HTTP carries GRPCRoute by the spec.'
    )
    expect(notAllowed(grpc, ref('edge'), world([])).remediation).toContain(
      'the controller lists no Route kind in status.listeners[name=http].supportedKinds'
    )
  })

  it('a kind already in allowedRoutes.kinds that the controller leaves out of supportedKinds: never "add kind"', () => {
    // a controller without GRPCRoute support writes supportedKinds without it
    const world = withGateway(
      [
        listener('http', 80, 'HTTP', {
          allowedRoutes: fromAll([{ kind: 'HTTPRoute' }, { kind: 'GRPCRoute' }])
        })
      ],
      {
        listeners: [listenerStatus('http', ['HTTPRoute'])]
      }
    )
    const d = notAllowed(route({}, 'GRPCRoute'), ref('edge'), world)
    expect(d.evidence).toEqual(['Listener http (port 80, HTTP) takes HTTPRoute, not GRPCRoute.'])
    expect(d.remediation).not.toContain('add kind')
    expect(d.remediation).not.toContain('whose protocol supports it')
    expect(d.remediation).toBe(
      'Attach the GRPCRoute to a listener that takes it, or use a controller that supports GRPCRoute: the controller lists only HTTPRoute in status.listeners[name=http].supportedKinds, though HTTP carries GRPCRoute by the spec.'
    )
  })
})

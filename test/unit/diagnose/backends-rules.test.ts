// The backend rules pinned one decision at a time: which ReferenceGrant permits which reference
// (from group, kind and namespace; to group, kind and optional name), the grant YAML route-gate
// proposes, what a BackendNotFound, InvalidKind or UnsupportedProtocol says about each backendRef,
// and when route-gate's reads contradict the controller.
import { describe, expect, it } from 'vitest'
import {
  explainBackendNotFound,
  explainInvalidKind,
  explainRefNotPermitted,
  explainUnsupportedProtocol,
  refuteBackendNotFound,
  refuteRefNotPermitted
} from '../../../src/diagnose/backends.ts'
import type { DiagnosisContext } from '../../../src/diagnose/context.ts'
import { findController } from '../../../src/rules/controllers.ts'
import { explainRoute } from '../../../src/diagnose/explain.ts'
import type { Finding, RouteObject, World } from '../../../src/model/types.ts'
import {
  baseWorld,
  grantFrom,
  ref,
  referenceGrant,
  route,
  routeVerdict,
  service
} from '../../fixtures/diagnose/world.ts'
import { fixText } from '../../helpers/fixes.ts'

const ISTIO = 'istio.io/gateway-controller'
const EG = 'gateway.envoyproxy.io/gatewayclass-controller'
const GW = 'gateway.networking.k8s.io'

function context(
  r: RouteObject,
  reason: string,
  message?: string,
  world: World = baseWorld(),
  /** '' for a controller route-gate does not know */
  controllerName = ISTIO
): DiagnosisContext {
  const finding: Finding = {
    condition: 'ResolvedRefs',
    reason,
    severity: 'error',
    ...(controllerName ? { controllerName } : {}),
    ...(message ? { message } : {})
  }
  const controller = findController(controllerName)
  return { route: r, world, finding, ...(controller ? { controller } : {}) }
}

/** A world whose only grant is the one given (the base world's GRPCRoute grant removed). */
function worldWith(...grants: ReturnType<typeof referenceGrant>[]): World {
  return { ...baseWorld(), referenceGrants: grants }
}

const toPayments = { group: '', kind: 'Service', name: 'payments' }

/** A Route with one rule that sends to `backendRefs`. */
const routeTo = (...backendRefs: unknown[]): RouteObject => route({ rules: [{ backendRefs }] })

/** The RefNotPermitted explanation for `r` (by default crossRoute()) in `world`. */
const notPermitted = (world: World, r: RouteObject = crossRoute(), controllerName?: string) =>
  explainRefNotPermitted(context(r, 'RefNotPermitted', undefined, world, controllerName))
const refuteNotPermitted = (world: World, r: RouteObject = crossRoute()) =>
  refuteRefNotPermitted(context(r, 'RefNotPermitted', undefined, world))

/** The BackendNotFound explanation and refutation, with context's defaults for what is left out. */
const notFound = (r: RouteObject, message?: string, world?: World, controllerName?: string) =>
  explainBackendNotFound(context(r, 'BackendNotFound', message, world, controllerName))
const refuteNotFound = (r: RouteObject, message?: string, world?: World, controllerName?: string) =>
  refuteBackendNotFound(context(r, 'BackendNotFound', message, world, controllerName))

/** cart in the Route's namespace, payments across namespaces */
const crossRoute = (): RouteObject =>
  routeTo({ name: 'cart', port: 8080 }, { name: 'payments', namespace: 'payments', port: 9000 })

describe('RefNotPermitted: which ReferenceGrant permits a reference', () => {
  it('a grant with several froms permits the Route when one of them matches', () => {
    const world = worldWith(
      referenceGrant('payments', 'shop-routes', [grantFrom('GRPCRoute'), grantFrom()], [toPayments])
    )
    const d = notPermitted(world)
    expect(fixText(d)).toBeUndefined()
    expect(d.evidence).toEqual([
      'rule 0 backendRef 1 (Service payments/payments:9000) is permitted by a ReferenceGrant in payments.',
      'Every cross-namespace backendRef is covered by a ReferenceGrant now; the condition may predate the grant.'
    ])
  })

  it('a grant with several tos permits the reference when one of them matches', () => {
    const world = worldWith(
      referenceGrant(
        'payments',
        'shop-routes',
        [grantFrom()],
        [{ group: '', kind: 'Service', name: 'ledger' }, toPayments]
      )
    )
    const d = notPermitted(world)
    expect(fixText(d)).toBeUndefined()
    expect(d.title).toBeUndefined()
  })

  it('a grant without a to name permits every Service of the namespace', () => {
    const world = worldWith(
      referenceGrant('payments', 'any-service', [grantFrom()], [{ group: '', kind: 'Service' }])
    )
    const d = notPermitted(world)
    expect(fixText(d)).toBeUndefined()
    expect(refuteNotPermitted(world)).toEqual([
      'ReferenceGrant payments/any-service permits HTTPRoute in shop to reference Service payments/payments:9000 (rule 0 backendRef 1).'
    ])
  })

  it('a grant from the Route kind in another namespace does not permit it', () => {
    const world = worldWith(
      referenceGrant('payments', 'staging', [grantFrom('HTTPRoute', 'shop-staging')], [toPayments])
    )
    const d = notPermitted(world)
    expect(d.evidence).toEqual([
      'rule 0 backendRef 1 refers to Service payments/payments:9000 in another namespace, and no ReferenceGrant in payments permits it.',
      'ReferenceGrant payments/staging allows HTTPRoute (gateway.networking.k8s.io) in shop-staging, not HTTPRoute (gateway.networking.k8s.io) in shop (a grant is per group, kind and namespace).'
    ])
    expect(fixText(d)).toContain('namespace: payments')
  })

  it('a grant whose from has no group is not one from Gateway API Routes', () => {
    const world = worldWith(
      referenceGrant(
        'payments',
        'no-group',
        [{ kind: 'HTTPRoute', namespace: 'shop' }],
        [toPayments]
      )
    )
    const d = notPermitted(world)
    expect(d.evidence).toContain(
      'ReferenceGrant payments/no-group allows HTTPRoute (core) in shop, not HTTPRoute (gateway.networking.k8s.io) in shop (a grant is per group, kind and namespace).'
    )
  })

  it('a grant to kind Secret (any name) does not permit a Service', () => {
    const world = worldWith(
      referenceGrant('payments', 'secrets', [grantFrom()], [{ group: '', kind: 'Secret' }])
    )
    const d = notPermitted(world)
    expect(d.evidence).toContain(
      'ReferenceGrant payments/secrets allows references to Secret (core) (any name), not to Service (core) payments.'
    )
    expect(fixText(d)).toBeDefined()
  })

  it('a grant to group "core" does not permit a core Service, and says the group must be ""', () => {
    // a common mistake: the core group is the empty string, not "core"
    const world = worldWith(
      referenceGrant(
        'payments',
        'core-group',
        [grantFrom()],
        [{ group: 'core', kind: 'Service', name: 'payments' }]
      )
    )
    const c = context(crossRoute(), 'RefNotPermitted', undefined, world)
    const d = explainRefNotPermitted(c)
    expect(d.title).toBe(
      'No ReferenceGrant lets HTTPRoute shop/storefront reference Service payments/payments'
    )
    expect(d.evidence).toContain(
      'ReferenceGrant payments/core-group allows references to Service (group "core", not the core group "") payments, not to Service (core) payments.'
    )
    expect(refuteRefNotPermitted(c)).toEqual([])
  })

  it('a grant with an empty spec allows nothing', () => {
    const empty = { ...referenceGrant('payments', 'empty', [], []), spec: {} }
    const d = notPermitted(worldWith(empty))
    expect(d.evidence).toContain(
      'ReferenceGrant payments/empty allows nothing, not HTTPRoute (gateway.networking.k8s.io) in shop (a grant is per group, kind and namespace).'
    )
  })

  it('a grant with froms but no tos allows references to nothing', () => {
    const grant = referenceGrant('payments', 'half', [grantFrom()], [])
    const noTo = { ...grant, spec: { from: [grantFrom()] } }
    const d = notPermitted(worldWith(noTo))
    expect(d.evidence).toContain(
      'ReferenceGrant payments/half allows references to nothing, not to Service (core) payments.'
    )
  })

  it("a grant in the Route's own namespace does not count: it must be in the backend's", () => {
    const world = worldWith(referenceGrant('shop', 'wrong-place', [grantFrom()], [toPayments]))
    const c = context(crossRoute(), 'RefNotPermitted', undefined, world)
    const d = explainRefNotPermitted(c)
    expect(d.evidence).toEqual([
      'rule 0 backendRef 1 refers to Service payments/payments:9000 in another namespace, and no ReferenceGrant in payments permits it.'
    ])
    expect(fixText(d)).toContain('  namespace: payments\n')
    expect(refuteRefNotPermitted(c)).toEqual([])
  })

  it('permits an Envoy Gateway Backend through a grant to its group, and writes that group in the fix', () => {
    const r = routeTo({
      group: 'gateway.envoyproxy.io',
      kind: 'Backend',
      name: 'ext',
      namespace: 'payments'
    })
    const grant = referenceGrant(
      'payments',
      'backends',
      [grantFrom()],
      [{ group: 'gateway.envoyproxy.io', kind: 'Backend', name: 'ext' }]
    )
    const permitted = notPermitted(worldWith(grant), r, EG)
    expect(fixText(permitted)).toBeUndefined()
    const missing = notPermitted(worldWith(), r, EG)
    expect(fixText(missing)).toContain(
      '  to:\n    - group: gateway.envoyproxy.io\n      kind: Backend\n      name: ext\n'
    )
    expect(missing.title).toBe(
      'No ReferenceGrant lets HTTPRoute shop/storefront reference Backend payments/ext'
    )
  })

  it('says which reference a grant covers and proposes one only for the other', () => {
    const r = routeTo(
      { name: 'payments', namespace: 'payments', port: 9000 },
      { name: 'ledger', namespace: 'payments', port: 8080 }
    )
    const world = worldWith(referenceGrant('payments', 'shop-routes', [grantFrom()], [toPayments]))
    const d = notPermitted(world, r)
    expect(d.evidence).toEqual([
      'rule 0 backendRef 0 (Service payments/payments:9000) is permitted by a ReferenceGrant in payments.',
      'rule 0 backendRef 1 refers to Service payments/ledger:8080 in another namespace, and no ReferenceGrant in payments permits it.',
      'ReferenceGrant payments/shop-routes allows references to Service (core) payments, not to Service (core) ledger.'
    ])
    expect(fixText(d)).toContain(
      '  to:\n    - group: ""\n      kind: Service\n      name: ledger\n'
    )
    expect(fixText(d)).not.toContain('name: payments\n')
  })

  it('writes one grant per backend namespace, each listing only its own Services', () => {
    const r = route({
      rules: [
        {
          backendRefs: [
            { name: 'payments', namespace: 'payments', port: 9000 },
            { name: 'ledger', namespace: 'payments', port: 8080 }
          ]
        },
        { backendRefs: [{ name: 'invoices', namespace: 'billing', port: 80 }] }
      ]
    })
    const world = { ...worldWith(), served: { ReferenceGrant: 'gateway.networking.k8s.io/v1' } }
    const d = notPermitted(world, r)
    expect(fixText(d)).toBe(
      [
        'apiVersion: gateway.networking.k8s.io/v1',
        'kind: ReferenceGrant',
        'metadata:',
        '  name: allow-shop-httproutes',
        '  namespace: payments',
        'spec:',
        '  from:',
        '    - group: gateway.networking.k8s.io',
        '      kind: HTTPRoute',
        '      namespace: shop',
        '  to:',
        '    - group: ""',
        '      kind: Service',
        '      name: payments',
        '    - group: ""',
        '      kind: Service',
        '      name: ledger',
        '---',
        'apiVersion: gateway.networking.k8s.io/v1',
        'kind: ReferenceGrant',
        'metadata:',
        '  name: allow-shop-httproutes',
        '  namespace: billing',
        'spec:',
        '  from:',
        '    - group: gateway.networking.k8s.io',
        '      kind: HTTPRoute',
        '      namespace: shop',
        '  to:',
        '    - group: ""',
        '      kind: Service',
        '      name: invoices',
        ''
      ].join('\n')
    )
    expect(d.remediation).toBe(
      'Create the ReferenceGrant below in namespace payments and billing: from HTTPRoute in shop, to Service payments/payments, Service payments/ledger and Service billing/invoices. Or move the backend into namespace shop.'
    )
  })

  it('takes the served version from the grants a dump holds when discovery is absent', () => {
    const v1 = { ...referenceGrant('payments', 'other', [], []), apiVersion: `${GW}/v1` }
    const d = notPermitted(worldWith(v1))
    expect(fixText(d)?.split('\n')[0]).toBe('apiVersion: gateway.networking.k8s.io/v1')
  })

  it('explains a RefNotPermitted on a Route without cross-namespace backendRefs', () => {
    const r = routeTo({ name: 'cart', port: 8080 })
    const d = explainRefNotPermitted(
      context(r, 'RefNotPermitted', 'cross-namespace filter reference not permitted')
    )
    expect(d).toEqual({
      evidence: [
        'The HTTPRoute has no cross-namespace backendRef in its spec; the controller refers to another reference (a filter or certificate) or to an older spec.'
      ]
    })
  })

  it('does not claim that no grant permits a reference when grants could not be read', () => {
    const world = {
      ...worldWith(),
      unreadable: ['referencegrants in namespace payments: forbidden (list)']
    }
    const d = notPermitted(world)
    expect(d.evidence).toEqual([
      'Could not read referencegrants in namespace payments: forbidden (list).'
    ])
  })

  it('does not refute the controller in a namespace whose grants could not be read', () => {
    const world = {
      ...worldWith(referenceGrant('payments', 'shop-routes', [grantFrom()], [toPayments])),
      unreadable: ['referencegrants in namespace payments: forbidden (list)']
    }
    expect(refuteNotPermitted(world)).toEqual([])
  })

  it('refutes a RefNotPermitted from the cross-namespace references only, through explainRoute', () => {
    const world = worldWith(referenceGrant('payments', 'shop-routes', [grantFrom()], [toPayments]))
    const finding: Finding = {
      condition: 'ResolvedRefs',
      reason: 'RefNotPermitted',
      severity: 'error',
      controllerName: ISTIO
    }
    const p = explainRoute(
      routeVerdict(crossRoute(), [{ parentRef: ref('web'), finding, controllerName: ISTIO }]),
      world
    ).parents[0]?.problems[0]
    expect(p?.title).toBe(
      'RefNotPermitted disagrees with what route-gate read: ReferenceGrant payments/shop-routes permits HTTPRoute in shop to reference Service payments/payments:9000 (rule 0 backendRef 1)'
    )
    expect(fixText(p)).toBeUndefined()
  })
})

describe('BackendNotFound: what route-gate read about each backendRef', () => {
  it('does not refute "no EndpointSlices": the Service exists but its Pods may not', () => {
    const r = routeTo({ name: 'cart', port: 8080 })
    const message = 'no EndpointSlices found for Service shop/cart'
    expect(refuteNotFound(r, message)).toEqual([])
    expect(refuteNotFound(r)).toEqual([
      'Service shop/cart exists with port 8080 (rule 0 backendRef 0).'
    ])
  })

  it('does not refute for a backend it does not look up, a ref without port, or unreadable Services', () => {
    const backend = routeTo({
      group: 'gateway.envoyproxy.io',
      kind: 'Backend',
      name: 'cart',
      port: 8080
    })
    expect(refuteNotFound(backend, undefined, baseWorld(), EG)).toEqual([])
    const portless = routeTo({ name: 'cart' })
    expect(refuteNotFound(portless)).toEqual([])
    const r = routeTo({ name: 'cart', port: 8080 })
    const blind = { ...baseWorld(), unreadable: ['services in namespace shop: forbidden (list)'] }
    expect(refuteNotFound(r, undefined, blind)).toEqual([])
  })

  it('says which rules have no backendRefs, in the plural', () => {
    const r = route({
      rules: [
        { backendRefs: [{ name: 'cart', port: 8080 }] },
        { matches: [{ path: { type: 'PathPrefix', value: '/old' } }] },
        { matches: [{ path: { type: 'PathPrefix', value: '/older' } }] }
      ]
    })
    const d = notFound(r, 'At least one Spec.Rules.BackendRef must be specified.')
    expect(d.title).toBe('Rules 1 and 2 of the HTTPRoute have no backendRefs')
    expect(d.remediation).toBe(
      'Add backendRefs (or a RequestRedirect filter) to rules 1 and 2, or remove them if answering its requests with HTTP 500 is not intended.'
    )
    expect(d.evidence[0]).toMatch(/^Rules 1 and 2 have no backendRefs: /)
  })

  it('looks up only Service backendRefs and says which others it does not', () => {
    const r = routeTo(
      { name: 'cart', port: 8080 },
      { group: 'gateway.envoyproxy.io', kind: 'Backend', name: 'ext', port: 443 }
    )
    const d = notFound(r, undefined, baseWorld(), EG)
    expect(d.evidence).toEqual([
      'Service shop/cart exists with port 8080.',
      'rule 0 backendRef 1 refers to Backend.gateway.envoyproxy.io shop/ext:443, which route-gate does not look up.'
    ])
    expect(d.title).toBe('A backendRef of the Route does not resolve')
    expect(d.remediation).toBeUndefined()
  })

  it('takes the title from the first backendRef that has a problem, and joins the remedies', () => {
    const r = routeTo({ name: 'cart', port: 8080 }, { name: 'carts', port: 8080 })
    const d = notFound(r, 'no EndpointSlices found for the backend')
    expect(d.title).toBe('rule 0 backendRef 1: Service shop/carts does not exist')
    expect(d.evidence).toEqual([
      'The message says the Service has no EndpointSlices: the Service may exist but select no Pods.',
      'Service shop/cart exists with port 8080.',
      'rule 0 backendRef 1 refers to Service shop/carts, which does not exist.',
      'Services in shop: cart, checkout and legacy.'
    ])
    expect(d.remediation).toBe(
      'Check the Service selector and that its Pods are running and ready; point rule 0 backendRef 1 at "cart" (the nearest existing Service in shop with port 8080) or create Service shop/carts.'
    )
  })

  it('says a namespace has no Services and proposes creating the one named', () => {
    const r = routeTo({ name: 'invoices', namespace: 'billing', port: 80 })
    const d = notFound(r)
    expect(d.evidence).toEqual([
      'rule 0 backendRef 0 refers to Service billing/invoices, which does not exist.',
      'Namespace billing has no Services.'
    ])
    expect(d.remediation).toBe(
      'Create Service billing/invoices or correct the name in rule 0 backendRef 0.'
    )
  })

  it('lists at most ten Services of the namespace', () => {
    const world = baseWorld()
    const names = Array.from({ length: 12 }, (_, i) => `svc-${String(i).padStart(2, '0')}`)
    world.services = names.map((n) => service('big', n, [{ port: 80 }]))
    const r = routeTo({ name: 'web', namespace: 'big', port: 80 })
    const d = notFound(r, undefined, world)
    expect(d.evidence[1]).toBe(`Services in big: ${names.slice(0, 9).join(', ')} and svc-09.`)
  })

  it('tells to replace an ExternalName Service', () => {
    const r = routeTo({ name: 'legacy', port: 80 })
    const d = notFound(r)
    expect(d.title).toBe('rule 0 backendRef 0: Service shop/legacy is an ExternalName Service')
    expect(d.evidence).toEqual([
      'Service shop/legacy is of type ExternalName, which most controllers do not accept as a backend.'
    ])
    expect(d.remediation).toBe(
      "Use a ClusterIP Service (or the controller's own external backend kind) instead of ExternalName Service legacy."
    )
  })

  it('names the ports to choose from for a backendRef without port', () => {
    const r = routeTo({ name: 'cart' })
    const d = notFound(r)
    expect(d.title).toBe('rule 0 backendRef 0 (Service shop/cart) has no port')
    expect(d.evidence).toEqual([
      'rule 0 backendRef 0 (Service shop/cart) has no port; the Service has ports 8080 (http) and 9090 (metrics).'
    ])
    expect(d.remediation).toBe(
      'Set port on rule 0 backendRef 0 to one of 8080 (http) and 9090 (metrics).'
    )
  })

  it("accepts any of the Service's ports, not only its first", () => {
    const r = routeTo({ name: 'cart', port: 9090 })
    const d = notFound(r)
    expect(d.evidence).toEqual(['Service shop/cart exists with port 9090.'])
    expect(d.remediation).toBeUndefined()
    expect(refuteNotFound(r)).toEqual([
      'Service shop/cart exists with port 9090 (rule 0 backendRef 0).'
    ])
  })

  it('for a port that is neither a port nor a targetPort, lists the ports', () => {
    const r = routeTo({ name: 'cart', port: 8081 })
    const d = notFound(r)
    expect(d.title).toBe(
      'rule 0 backendRef 0: Service shop/cart has no port 8081 (ports: 8080/http, 9090/metrics)'
    )
    expect(d.evidence).toEqual([
      'rule 0 backendRef 0 asks for port 8081, but Service shop/cart has ports 8080 (http) and 9090 (metrics).'
    ])
    expect(d.remediation).toBe(
      'Set port on rule 0 backendRef 0 to one of 8080 (http) and 9090 (metrics).'
    )
  })
})

describe('BackendNotFound: port-aware Service advice', () => {
  it('never suggests a nearest Service that lacks the referenced port', () => {
    // cart is one letter from carts but has no port 9999
    const d = notFound(routeTo({ name: 'carts', port: 9999 }))
    expect(d.remediation).not.toContain('"cart"')
    expect(d.remediation).toBe(
      'Create Service shop/carts or correct the name in rule 0 backendRef 0.'
    )
  })

  it('suggests the nearest Service that has the port, named with it', () => {
    const world = baseWorld()
    world.services.push(service('shop', 'carts-v2', [{ port: 9999, name: 'http' }]))
    const d = notFound(routeTo({ name: 'carts', port: 9999 }), undefined, world)
    expect(d.remediation).toContain(
      '"carts-v2" (the nearest existing Service in shop with port 9999)'
    )
  })

  it('shows appProtocol in the ports of a wrong-port title, where it decides what is sent', () => {
    const world = baseWorld()
    world.services.push(
      service('shop', 'grpc', [
        { port: 80, name: 'http' },
        { port: 9000, name: 'grpc', appProtocol: 'kubernetes.io/h2c' }
      ])
    )
    const d = notFound(routeTo({ name: 'grpc', port: 8080 }), undefined, world)
    expect(d.title).toBe(
      'rule 0 backendRef 0: Service shop/grpc has no port 8080 (ports: 80/http, 9000/grpc (appProtocol kubernetes.io/h2c))'
    )
  })
})

describe('InvalidKind: which references have a kind the controller does not take', () => {
  it('names only the non-Service backendRef and proposes a core Service for an unknown controller', () => {
    const r = routeTo(
      { name: 'cart', port: 8080 },
      { group: 'storage.example.com', kind: 'Bucket', name: 'assets' }
    )
    const d = explainInvalidKind(context(r, 'InvalidKind', undefined, baseWorld(), ''))
    expect(d.title).toBe('rule 0 backendRef 1 refers to unsupported kind Bucket')
    expect(d.evidence).toEqual([
      'rule 0 backendRef 1 refers to group "storage.example.com" kind Bucket (assets).'
    ])
    expect(d.remediation).toBe('Use a core Service (group "", kind Service).')
  })

  it('focuses on the backend the message names, dotted names included', () => {
    const r = routeTo(
      { group: 'gateway.envoyproxy.io', kind: 'Backend', name: 'api-v1', port: 443 },
      { group: 'gateway.envoyproxy.io', kind: 'Backend', name: 'api.v1', port: 443 }
    )
    const d = explainInvalidKind(
      context(
        r,
        'InvalidKind',
        'Backend api.v1 is not enabled',
        baseWorld(),
        'traefik.io/gateway-controller'
      )
    )
    expect(d.title).toBe('rule 0 backendRef 1 refers to unsupported kind Backend')
    expect(d.evidence).toEqual([
      'rule 0 backendRef 1 refers to group "gateway.envoyproxy.io" kind Backend (api.v1).'
    ])
  })

  it('spots a Service backendRef without port and an ExtensionRef filter', () => {
    const r = route({
      rules: [
        {
          filters: [
            {
              type: 'RequestHeaderModifier',
              requestHeaderModifier: { set: [{ name: 'x-a', value: '1' }] }
            },
            {
              type: 'ExtensionRef',
              extensionRef: {
                group: 'gateway.envoyproxy.io',
                kind: 'HTTPRouteFilter',
                name: 'rewrite'
              }
            }
          ],
          backendRefs: [{ name: 'cart' }, { name: 'checkout', port: 80 }]
        }
      ]
    })
    const d = explainInvalidKind(context(r, 'InvalidKind', undefined, baseWorld(), EG))
    expect(d.title).toBe('A reference of the Route has a kind the controller does not support')
    expect(d.evidence).toEqual([
      'rule 0 backendRef 0 (Service cart) has no port; some controllers (Cilium) report this as InvalidKind.',
      'rule 0 filter 1 is an ExtensionRef to group "gateway.envoyproxy.io" kind HTTPRouteFilter (rewrite).'
    ])
    expect(d.remediation).toBe(
      'Envoy Gateway supports backend kinds Service, ServiceImport (multicluster.x-k8s.io) and Backend (gateway.envoyproxy.io); set port on rule 0 backendRef 0; check that the controller supports each ExtensionRef kind and that its CRD is installed.'
    )
  })

  it('adds no port or ExtensionRef advice when there is nothing of the kind', () => {
    const r = route({
      rules: [
        {
          filters: [
            { type: 'RequestMirror', requestMirror: { backendRef: { name: 'cart', port: 9090 } } }
          ],
          backendRefs: [{ group: 'example.com', kind: 'Bucket', name: 'assets' }]
        }
      ]
    })
    const d = explainInvalidKind(
      context(
        r,
        'InvalidKind',
        undefined,
        baseWorld(),
        'gateway.nginx.org/nginx-gateway-controller'
      )
    )
    expect(d.remediation).toBe('NGINX Gateway Fabric supports backend kinds Service.')
  })
})

describe('UnsupportedProtocol: which Service port carries the appProtocol', () => {
  const world = (): World => {
    const w = baseWorld()
    w.services.push(
      service('payments', 'gateway', [
        { name: 'grpc', port: 9000, appProtocol: 'kubernetes.io/h2c' },
        { name: 'http', port: 8080 }
      ])
    )
    return w
  }

  it('names the port the backendRef uses, not another port of the Service', () => {
    const uses = (port: number): RouteObject =>
      route(
        { rules: [{ backendRefs: [{ name: 'gateway', namespace: 'payments', port }] }] },
        'TCPRoute'
      )
    const fine = explainUnsupportedProtocol(
      context(uses(8080), 'UnsupportedProtocol', undefined, world())
    )
    expect(fine.title).toBeUndefined()
    expect(fine.evidence).toEqual([])
    expect(fine.remediation).toBe(
      "Change the Service port's appProtocol to one the controller supports, or remove it."
    )
    const offending = explainUnsupportedProtocol(
      context(uses(9000), 'UnsupportedProtocol', undefined, world())
    )
    expect(offending.title).toBe(
      'The appProtocol of Service payments/gateway port 9000 is not supported for a TCPRoute'
    )
    expect(offending.remediation).toBe(
      'Change or remove appProtocol on Service payments/gateway port 9000: use one the controller supports for a TCPRoute (e.g. http, kubernetes.io/h2c, kubernetes.io/ws), or route that port with a matching Route kind.'
    )
  })

  it('does not read a non-Service backend as the Service of the same name', () => {
    const r = route(
      {
        rules: [
          {
            backendRefs: [
              {
                group: 'multicluster.x-k8s.io',
                kind: 'ServiceImport',
                name: 'payments',
                namespace: 'payments',
                port: 9000
              }
            ]
          }
        ]
      },
      'TCPRoute'
    )
    const d = explainUnsupportedProtocol(context(r, 'UnsupportedProtocol'))
    expect(d.title).toBeUndefined()
    expect(d.evidence).toEqual([])
  })

  it('says Services could not be read only when no offending port was found', () => {
    const missing = route({ rules: [{ backendRefs: [{ name: 'grpc', port: 9000 }] }] }, 'TCPRoute')
    const blind = { ...world(), unreadable: ['services in namespace shop: forbidden (list)'] }
    expect(
      explainUnsupportedProtocol(context(missing, 'UnsupportedProtocol', undefined, blind)).evidence
    ).toEqual(['Could not read services in namespace shop: forbidden (list).'])
    const both = route(
      {
        rules: [
          {
            backendRefs: [
              { name: 'grpc', port: 9000 },
              { name: 'gateway', namespace: 'payments', port: 9000 }
            ]
          }
        ]
      },
      'TCPRoute'
    )
    expect(
      explainUnsupportedProtocol(context(both, 'UnsupportedProtocol', undefined, blind)).evidence
    ).toEqual([
      'rule 0 backendRef 1: Service payments/gateway port 9000 has appProtocol kubernetes.io/h2c.'
    ])
  })
})

import { describe, expect, it } from 'vitest'
import { explainRoute } from '../../../src/diagnose/explain.ts'
import type { Finding, Problem, RouteObject, World } from '../../../src/model/types.ts'
import {
  MODES,
  baseWorld,
  grantFrom,
  ref,
  referenceGrant,
  route,
  routeVerdict,
  severityIn
} from '../../fixtures/diagnose/world.ts'
import type { Mode } from '../../fixtures/diagnose/world.ts'
import { fixText } from '../../helpers/fixes.ts'

function problemFor(
  r: RouteObject,
  finding: Finding,
  world: World = baseWorld(),
  controllerName = 'istio.io/gateway-controller'
): Problem | undefined {
  return explainRoute(routeVerdict(r, [{ parentRef: ref('web'), finding, controllerName }]), world)
    .parents[0]?.problems[0]
}

function resolvedRefs(
  reason: string,
  mode: Mode,
  message?: string,
  controllerName = 'istio.io/gateway-controller'
): Finding {
  return {
    condition: 'ResolvedRefs',
    reason,
    severity: severityIn(mode),
    controllerName,
    ...(message ? { message } : {})
  }
}

const crossNamespace = (kind: RouteObject['kind'] = 'HTTPRoute'): RouteObject =>
  route(
    {
      rules: [
        {
          backendRefs: [
            { name: 'cart', port: 8080 },
            { name: 'payments', namespace: 'payments', port: 9000 }
          ]
        }
      ]
    },
    kind
  )

describe.each(MODES)('RefNotPermitted (%s mode)', (mode) => {
  it('writes the exact ReferenceGrant to create in the backend namespace', () => {
    const message =
      'backendRef payments/payments not accessible to a HTTPRoute in namespace "shop" (missing a ReferenceGrant?)'
    const p = problemFor(crossNamespace(), resolvedRefs('RefNotPermitted', mode, message))
    expect(p?.standard).toBe(true)
    expect(p?.title).toBe(
      'No ReferenceGrant lets HTTPRoute shop/storefront reference Service payments/payments'
    )
    expect(fixText(p)).toBe(
      [
        'apiVersion: gateway.networking.k8s.io/v1beta1',
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
        ''
      ].join('\n')
    )
    expect(p?.evidence).toContain(
      'ReferenceGrant payments/allow-grpc allows GRPCRoute (gateway.networking.k8s.io) in shop, not HTTPRoute (gateway.networking.k8s.io) in shop (a grant is per group, kind and namespace).'
    )
  })

  it('finds nothing missing when a grant covers the reference', () => {
    const p = problemFor(crossNamespace('GRPCRoute'), resolvedRefs('RefNotPermitted', mode))
    expect(fixText(p)).toBeUndefined()
    expect(p?.evidence).toContain(
      'Every cross-namespace backendRef is covered by a ReferenceGrant now; the condition may predate the grant.'
    )
  })

  it('names a grant that allows another Service', () => {
    const world = baseWorld()
    world.referenceGrants.push(
      referenceGrant(
        'payments',
        'other',
        [grantFrom()],
        [{ group: '', kind: 'Service', name: 'ledger' }]
      )
    )
    const p = problemFor(crossNamespace(), resolvedRefs('RefNotPermitted', mode), world)
    expect(p?.evidence).toContain(
      'ReferenceGrant payments/other allows references to Service (core) ledger, not to Service (core) payments.'
    )
  })

  it('tells apart a grant that differs only in group', () => {
    const world = baseWorld()
    world.referenceGrants = [
      referenceGrant(
        'payments',
        'experimental',
        [{ group: 'gateway.networking.x-k8s.io', kind: 'HTTPRoute', namespace: 'shop' }],
        [{ group: '', kind: 'Service', name: 'payments' }]
      )
    ]
    const p = problemFor(crossNamespace(), resolvedRefs('RefNotPermitted', mode), world)
    expect(p?.evidence).toContain(
      'ReferenceGrant payments/experimental allows HTTPRoute (gateway.networking.x-k8s.io) in shop, not HTTPRoute (gateway.networking.k8s.io) in shop (a grant is per group, kind and namespace).'
    )
  })

  it('writes the grant in the version the cluster serves', () => {
    const served = { ...baseWorld(), served: { ReferenceGrant: 'gateway.networking.k8s.io/v1' } }
    const p = problemFor(crossNamespace(), resolvedRefs('RefNotPermitted', mode), served)
    expect(fixText(p)?.split('\n')[0]).toBe('apiVersion: gateway.networking.k8s.io/v1')
    // nothing says which version is served (a dump without grants): v1beta1, and the comment says why
    const unknown = { ...baseWorld(), referenceGrants: [] }
    const q = problemFor(crossNamespace(), resolvedRefs('RefNotPermitted', mode), unknown)
    expect(fixText(q)?.split('\n')[0]).toBe('apiVersion: gateway.networking.k8s.io/v1beta1')
    expect(q?.remediation).toContain(
      'The served ReferenceGrant version could not be read: gateway.networking.k8s.io/v1beta1 is served by every Gateway API release, gateway.networking.k8s.io/v1 from v1.5 on.'
    )
  })

  it('still proposes the grant when ReferenceGrants cannot be read, and says so', () => {
    const world = {
      ...baseWorld(),
      referenceGrants: [],
      unreadable: ['referencegrants in namespace payments: forbidden (list)']
    }
    const p = problemFor(crossNamespace(), resolvedRefs('RefNotPermitted', mode), world)
    expect(p?.evidence).toContain(
      'Could not read referencegrants in namespace payments: forbidden (list).'
    )
    expect(fixText(p)).toContain('namespace: payments')
  })
})

describe.each(MODES)('BackendNotFound (%s mode)', (mode) => {
  it('names the missing backendRef and the nearest existing Service', () => {
    const r = route({ rules: [{ backendRefs: [{ name: 'carts', port: 8080 }] }] })
    const p = problemFor(
      r,
      resolvedRefs('BackendNotFound', mode, 'backend(carts.shop.svc.cluster.local) not found')
    )
    expect(p?.title).toBe('rule 0 backendRef 0: Service shop/carts does not exist')
    expect(p?.evidence).toContain('Services in shop: cart, checkout and legacy.')
    expect(p?.remediation).toContain('"cart" (the nearest existing Service in shop with port 8080)')
  })

  it('lists the ports a Service has for a wrong port, and spots a targetPort', () => {
    const r = route({ rules: [{ backendRefs: [{ name: 'checkout', port: 8080 }] }] })
    const p = problemFor(
      r,
      resolvedRefs(
        'BackendNotFound',
        mode,
        'No matching port for Service checkout and port 8080',
        'gateway.nginx.org/nginx-gateway-controller'
      ),
      baseWorld('nginx', 'gateway.nginx.org/nginx-gateway-controller'),
      'gateway.nginx.org/nginx-gateway-controller'
    )
    expect(p?.evidence).toContain(
      'rule 0 backendRef 0 asks for port 8080, but Service shop/checkout has ports 80 (http).'
    )
    expect(p?.evidence).toContain(
      '8080 is the targetPort of Service port 80; a backendRef takes the Service port.'
    )
    expect(p?.remediation).toBe('Set port on rule 0 backendRef 0 to 80.')
  })

  it('focuses on the backendRef the message names', () => {
    const r = route({
      rules: [
        {
          backendRefs: [
            { name: 'cart', port: 8080 },
            { name: 'wishlist', port: 80 }
          ]
        }
      ]
    })
    const p = problemFor(
      r,
      resolvedRefs(
        'BackendNotFound',
        mode,
        'services "wishlist" not found',
        'io.cilium/gateway-controller'
      ),
      baseWorld('cilium', 'io.cilium/gateway-controller'),
      'io.cilium/gateway-controller'
    )
    expect(p?.title).toBe('rule 0 backendRef 1: Service shop/wishlist does not exist')
    expect(p?.evidence?.join(' ')).not.toContain('shop/cart ')
  })

  it('flags an ExternalName Service', () => {
    const r = route({ rules: [{ backendRefs: [{ name: 'legacy', port: 80 }] }] })
    const p = problemFor(r, resolvedRefs('BackendNotFound', mode))
    expect(p?.title).toContain('ExternalName')
  })

  it('says which Services could not be read instead of calling them missing', () => {
    const r = route({ rules: [{ backendRefs: [{ name: 'carts', port: 8080 }] }] })
    const world = {
      ...baseWorld(),
      services: [],
      unreadable: ['services in namespace shop: forbidden (list)']
    }
    const p = problemFor(r, resolvedRefs('BackendNotFound', mode), world)
    expect(p?.evidence).toEqual([
      'Could not read services in namespace shop: forbidden (list).',
      'Whether Service shop/carts (rule 0 backendRef 0) exists could not be checked.'
    ])
    expect(p?.remediation).toBe(
      'Create the Service or correct the backendRef name, namespace and port.'
    )
  })

  it('says a dump without Services could not be checked', () => {
    const r = route({ rules: [{ backendRefs: [{ name: 'carts', port: 8080 }] }] })
    const p = problemFor(r, resolvedRefs('BackendNotFound', mode), {
      ...baseWorld(),
      services: [],
      partial: true
    })
    expect(p?.evidence?.[0]).toBe('The source holds no Services, so they could not be checked.')
  })
})

describe.each(MODES)('InvalidKind and UnsupportedProtocol (%s mode)', (mode) => {
  it('names the backendRef with an unsupported kind and what the controller supports', () => {
    const r = route({
      rules: [{ backendRefs: [{ group: 'example.com', kind: 'Bucket', name: 'assets' }] }]
    })
    const eg = 'gateway.envoyproxy.io/gatewayclass-controller'
    const p = problemFor(
      r,
      resolvedRefs(
        'InvalidKind',
        mode,
        'Kind is invalid, only Service, MCS ServiceImport and Envoy Gateway Backend are supported.',
        eg
      ),
      baseWorld('eg', eg),
      eg
    )
    expect(p?.title).toBe('rule 0 backendRef 0 refers to unsupported kind Bucket')
    expect(p?.evidence).toContain(
      'rule 0 backendRef 0 refers to group "example.com" kind Bucket (assets).'
    )
    expect(p?.remediation).toContain(
      'Envoy Gateway supports backend kinds Service, ServiceImport (multicluster.x-k8s.io) and Backend (gateway.envoyproxy.io)'
    )
  })

  it('spots a backendRef without port (Cilium reports it as InvalidKind)', () => {
    const r = route({ rules: [{ backendRefs: [{ name: 'cart' }] }] })
    const p = problemFor(
      r,
      resolvedRefs('InvalidKind', mode, 'Must have port for backend object reference')
    )
    expect(p?.remediation).toContain('set port on rule 0 backendRef 0')
  })

  it('names the Service port whose appProtocol is unsupported', () => {
    const r = route(
      { rules: [{ backendRefs: [{ name: 'payments', namespace: 'payments', port: 9000 }] }] },
      'TCPRoute'
    )
    const p = problemFor(r, resolvedRefs('UnsupportedProtocol', mode))
    expect(p?.evidence).toEqual([
      'rule 0 backendRef 0: Service payments/payments port 9000 has appProtocol kubernetes.io/h2c.'
    ])
    expect(p?.remediation).toContain(
      'Change or remove appProtocol on Service payments/payments port 9000'
    )
  })
})

describe.each(MODES)('rules without backendRefs (%s mode)', (mode) => {
  it('names the rules a controller reports, and leaves the valid backend of another rule alone', () => {
    const r = route({
      rules: [
        { backendRefs: [{ name: 'cart', port: 8080 }] },
        { matches: [{ path: { type: 'PathPrefix', value: '/old' } }] },
        { filters: [{ type: 'RequestRedirect', requestRedirect: { statusCode: 301 } }] }
      ]
    })
    const p = problemFor(
      r,
      resolvedRefs(
        'Degraded',
        mode,
        'At least one Spec.Rules.BackendRef must be specified.',
        'projectcontour.io/gateway-controller'
      ),
      baseWorld('contour', 'projectcontour.io/gateway-controller'),
      'projectcontour.io/gateway-controller'
    )
    expect(p?.title).toBe('Rule 1 of the HTTPRoute has no backendRefs')
    expect(p?.evidence).toEqual([
      'Rule 1 has no backendRefs: Gateway API allows that (the data plane answers matching requests with HTTP 500), and this controller reports it.'
    ])
    expect(p?.remediation).toContain(
      'Add backendRefs (or a RequestRedirect filter) to rule 1, or remove it if answering its requests with HTTP 500 is not intended.'
    )
    expect(p?.evidence?.join(' ')).not.toContain('cart')
  })
})

import { describe, expect, it } from 'vitest'
import { isRouteObject, parseRouteKind } from '../../../src/model/kinds.ts'
import { ROUTE_KINDS } from '../../../src/model/types.ts'
import type { KubeObject, RouteKind } from '../../../src/model/types.ts'

describe('parseRouteKind', () => {
  it.each([
    ['HTTPRoute', 'HTTPRoute'],
    ['httproute', 'HTTPRoute'],
    ['httproutes', 'HTTPRoute'],
    [' GRPCRoutes ', 'GRPCRoute'],
    ['tlsroute', 'TLSRoute'],
    ['TCPRoute', 'TCPRoute'],
    ['udproutes', 'UDPRoute']
  ])('reads %j as %s', (text, kind) => {
    expect(parseRouteKind(text)).toBe(kind)
  })

  it.each(['Gateway', 'httproutess', 'route', ''])('rejects %j', (text) => {
    expect(parseRouteKind(text)).toBeUndefined()
  })
})

/** Every version a Gateway API release from v1.0 on has served for each kind (gateway-api-status.md §10). */
const SERVED_VERSIONS: Record<RouteKind, string[]> = {
  HTTPRoute: ['v1', 'v1beta1'],
  GRPCRoute: ['v1', 'v1alpha2'],
  TLSRoute: ['v1', 'v1alpha3', 'v1alpha2'],
  TCPRoute: ['v1', 'v1alpha2'],
  UDPRoute: ['v1', 'v1alpha2']
}

describe('isRouteObject', () => {
  const object = (apiVersion: string, kind: string): KubeObject => ({
    apiVersion,
    kind,
    metadata: { name: 'web', namespace: 'shop' }
  })

  it('accepts every route kind in every Gateway API version', () => {
    for (const kind of ROUTE_KINDS) {
      for (const version of SERVED_VERSIONS[kind]) {
        expect(isRouteObject(object(`gateway.networking.k8s.io/${version}`, kind))).toBe(true)
      }
    }
  })

  it('rejects other groups, other kinds and odd shapes', () => {
    expect(isRouteObject(object('gateway.networking.x-k8s.io/v1alpha1', 'HTTPRoute'))).toBe(false)
    expect(isRouteObject(object('v1', 'HTTPRoute'))).toBe(false)
    expect(isRouteObject(object('gateway.networking.k8s.io/v1', 'Gateway'))).toBe(false)
    expect(isRouteObject(object('gateway.networking.k8s.io/v1', 'httproute'))).toBe(false)
    expect(
      isRouteObject({ apiVersion: 'gateway.networking.k8s.io/v1', kind: 'HTTPRoute' } as never)
    ).toBe(false)
    expect(isRouteObject(null as never)).toBe(false)
    // a hand-written manifest can hold anything: no throw on a number where the string belongs
    expect(isRouteObject({ apiVersion: 1, kind: 'HTTPRoute', metadata: {} } as never)).toBe(false)
  })
})

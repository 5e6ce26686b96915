// Rules of the World lookups: what a dump or a forbidden read cannot tell (so an absent object is not
// called missing), and how listeners, listener status and Service ports are read from objects as
// controllers and kubectl write them, hand-edited dumps included.
import { describe, expect, it } from 'vitest'
import { blindSpots, describeListener } from '../../../src/wording/objects.ts'
import {
  canSee,
  listenerStatusesOf,
  listenersOf,
  namesIn,
  servicePortsOf
} from '../../../src/rules/world.ts'
import type { World } from '../../../src/model/types.ts'
import { baseWorld, gateway, service } from '../../fixtures/diagnose/world.ts'

describe('what the World cannot tell', () => {
  it('counts a forbidden read in one namespace as a blind spot for a lookup in any namespace', () => {
    const world: World = {
      ...baseWorld(),
      unreadable: ['services in namespace billing: forbidden (list)']
    }
    expect(blindSpots(world, 'services')).toEqual([
      'Could not read services in namespace billing: forbidden (list).'
    ])
    expect(canSee(world, 'services', 'billing')).toBe(false)
    expect(canSee(world, 'services', 'shop')).toBe(true)
    expect(canSee(world, 'gateways', 'billing')).toBe(true)
  })

  it('treats a kind a partial dump holds none of as unchecked, and one it holds as complete', () => {
    const world: World = { ...baseWorld(), referenceGrants: [], partial: true }
    expect(blindSpots(world, 'referencegrants')).toEqual([
      'The source holds no ReferenceGrants, so they could not be checked.'
    ])
    expect(blindSpots(world, 'services')).toEqual([])
    expect(canSee(world, 'services', 'shop')).toBe(true)
    // a World put together without ListenerSets at all
    expect(blindSpots(world, 'listenersets')).toEqual([
      'The source holds no ListenerSets, so they could not be checked.'
    ])
  })

  it('lists the names in one namespace, or in all', () => {
    const world = baseWorld()
    expect(namesIn(world.services, 'payments')).toEqual(['payments'])
    expect(namesIn(world.services)).toEqual(['cart', 'checkout', 'payments', 'legacy'])
  })
})

describe('reading listeners', () => {
  const gw = (listeners: unknown[], status?: unknown) =>
    gateway('infra', 'web', 'istio', listeners, status)

  it('skips a listener without a name and reads allowedRoutes.kinds with their group', () => {
    const listeners = listenersOf(
      gw([
        { port: 80, protocol: 'HTTP' },
        'garbage',
        {
          name: 'custom',
          port: 9000,
          protocol: 'example.com/CUSTOM',
          allowedRoutes: {
            kinds: [
              { group: 'example.com', kind: 'CustomRoute' },
              { kind: 'HTTPRoute' },
              { group: 'x' }
            ]
          }
        }
      ])
    )
    expect(listeners).toEqual([
      {
        name: 'custom',
        port: 9000,
        protocol: 'example.com/CUSTOM',
        from: 'Same',
        kinds: [
          { group: 'example.com', kind: 'CustomRoute' },
          { group: 'gateway.networking.k8s.io', kind: 'HTTPRoute' }
        ]
      }
    ])
  })

  it('tells a listener status without supportedKinds from one that supports nothing', () => {
    const statuses = listenerStatusesOf(
      gw([], {
        listeners: [
          { name: 'http', attachedRoutes: 0, conditions: [] },
          { name: 'tls', supportedKinds: [], conditions: [] },
          { name: 'grpc', supportedKinds: [{ kind: 'GRPCRoute' }], conditions: [] },
          { attachedRoutes: 3, supportedKinds: [{ kind: 'HTTPRoute' }] }
        ]
      })
    )
    expect(statuses.map((s) => [s.name, s.supportedKinds])).toEqual([
      ['http', undefined],
      ['tls', []],
      ['grpc', [{ group: 'gateway.networking.k8s.io', kind: 'GRPCRoute' }]]
    ])
  })

  it('describes a listener by what it sets', () => {
    expect(
      describeListener({ name: 'http', port: 80, protocol: 'HTTP', from: 'Same', kinds: [] })
    ).toBe('http (port 80, HTTP)')
    expect(
      describeListener({
        name: 'custom',
        protocol: 'HTTPS',
        hostname: '*.example.com',
        from: 'Same',
        kinds: []
      })
    ).toBe('custom (HTTPS, hostname *.example.com)')
    expect(describeListener({ name: 'bare', from: 'Same', kinds: [] })).toBe('bare')
  })
})

describe('reading Service ports', () => {
  it('reads named and numeric targetPorts, protocols, and skips ports without a number', () => {
    const ports = servicePortsOf(
      service('shop', 'dns', [
        { name: 'dns', port: 53, protocol: 'UDP', targetPort: 'dns' },
        { name: 'metrics', port: 9153, targetPort: 9153, appProtocol: 'http' },
        { port: 8080 },
        { name: 'broken', targetPort: 80 },
        'garbage'
      ])
    )
    expect(ports).toEqual([
      { port: 53, name: 'dns', protocol: 'UDP', targetPort: 'dns' },
      { port: 9153, name: 'metrics', targetPort: '9153', appProtocol: 'http' },
      { port: 8080 }
    ])
  })
})

// Which listeners a parentRef selects (sectionName, port, both) and which Route kinds a listener
// takes: the controller's supportedKinds first, then allowedRoutes.kinds, then the protocol.
import { describe, expect, it } from 'vitest'
import {
  listenerKinds,
  protocolKinds,
  selectListeners,
  takesKind
} from '../../../src/rules/listener-selection.ts'
import type { Listener, ListenerStatus } from '../../../src/rules/world.ts'
import type { ParentRef } from '../../../src/model/types.ts'

const G = 'gateway.networking.k8s.io'
const http: Listener = { name: 'http', port: 80, protocol: 'HTTP', from: 'All', kinds: [] }
const https: Listener = { name: 'https', port: 443, protocol: 'HTTPS', from: 'All', kinds: [] }
const admin: Listener = { name: 'admin', port: 443, protocol: 'HTTPS', from: 'Same', kinds: [] }
const ref = (extra: Partial<ParentRef>): ParentRef => ({
  group: G,
  kind: 'Gateway',
  namespace: 'infra',
  name: 'web',
  ...extra
})

describe('selectListeners', () => {
  const all = [http, https, admin]
  it('sectionName, port, both, neither', () => {
    expect(selectListeners(all, ref({})).map((l) => l.name)).toEqual(['http', 'https', 'admin'])
    expect(selectListeners(all, ref({ sectionName: 'https' })).map((l) => l.name)).toEqual([
      'https'
    ])
    expect(selectListeners(all, ref({ port: 443 })).map((l) => l.name)).toEqual(['https', 'admin'])
    expect(selectListeners(all, ref({ sectionName: 'admin', port: 443 }))).toEqual([admin])
    expect(selectListeners(all, ref({ sectionName: 'https', port: 80 }))).toEqual([])
  })
})

describe('listenerKinds and takesKind', () => {
  const status = (name: string, kinds?: string[]): ListenerStatus => ({
    name,
    conditions: [],
    ...(kinds ? { supportedKinds: kinds.map((kind) => ({ group: G, kind })) } : {})
  })

  it('the protocol decides when nothing else says', () => {
    expect(listenerKinds(http, undefined)).toEqual(['HTTPRoute', 'GRPCRoute'])
    expect(protocolKinds('TLS')).toEqual(['TLSRoute', 'TCPRoute'])
    expect(protocolKinds(undefined)).toBeUndefined()
  })

  it('allowedRoutes.kinds narrow the protocol, Gateway API group only', () => {
    const grpc: Listener = {
      ...http,
      kinds: [
        { group: G, kind: 'GRPCRoute' },
        { group: 'networking.example.io', kind: 'HTTPRoute' }
      ]
    }
    expect(listenerKinds(grpc, undefined)).toEqual(['GRPCRoute'])
  })

  it("the controller's supportedKinds win over the spec, each listener its own", () => {
    const statuses = [status('https', ['HTTPRoute', 'GRPCRoute']), status('http', ['HTTPRoute'])]
    expect(takesKind(http, statuses, 'GRPCRoute')).toBe(false)
    expect(takesKind(https, statuses, 'GRPCRoute')).toBe(true)
    expect(takesKind(http, [status('http')], 'GRPCRoute')).toBe(true)
  })

  it('a vendor protocol without supportedKinds takes any kind; with them, only those', () => {
    const mesh: Listener = { name: 'mesh', port: 15008, protocol: 'HBONE', from: 'All', kinds: [] }
    expect(listenerKinds(mesh, undefined)).toBeUndefined()
    expect(takesKind(mesh, [], 'HTTPRoute')).toBe(true)
    expect(takesKind(mesh, [status('mesh', ['TCPRoute'])], 'HTTPRoute')).toBe(false)
  })
})

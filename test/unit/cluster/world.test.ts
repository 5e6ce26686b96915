import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { connect } from '../../../src/cluster/connect.ts'
import type { ClusterClient } from '../../../src/cluster/types.ts'
import { ClusterError } from '../../../src/runtime/errors.ts'
import {
  FAST_TUNING,
  FakeApiServer,
  list,
  sendJson,
  sendStatus
} from '../../helpers/fake-apiserver.ts'

const GW = '/apis/gateway.networking.k8s.io/v1'
const GRANTS = '/apis/gateway.networking.k8s.io/v1beta1'

function named(name: string, namespace?: string): Record<string, unknown> {
  return { metadata: { name, ...(namespace ? { namespace } : {}) } }
}

describe('readWorld and checkNamespaces', () => {
  let fake: FakeApiServer
  let client: ClusterClient
  beforeEach(async () => {
    fake = await FakeApiServer.start()
    fake.serveGatewayGroup({
      v1: [{ kind: 'GatewayClass' }, { kind: 'Gateway' }, { kind: 'HTTPRoute' }],
      v1beta1: [{ kind: 'ReferenceGrant' }]
    })
    fake.on('GET', `${GW}/gatewayclasses`, (_q, r) =>
      sendJson(r, 200, list('GatewayClass', '1', [named('contour')]))
    )
    client = await connect({
      kubeconfig: fake.kubeconfig(),
      env: {},
      mask: () => {},
      tuning: FAST_TUNING
    })
  })
  afterEach(async () => {
    client.close()
    await fake.close()
  })

  const forbidden = (_q: unknown, r: import('node:http').ServerResponse): void =>
    sendStatus(r, 403, 'Forbidden', 'User "ci" cannot list')

  it('reads every kind, typed, from the preferred versions', async () => {
    fake.on('GET', `${GW}/gateways`, (_q, r) =>
      sendJson(r, 200, list('Gateway', '1', [named('gw', 'infra')]))
    )
    fake.on('GET', '/api/v1/namespaces', (_q, r) =>
      sendJson(r, 200, list('Namespace', '1', [named('shop')]))
    )
    fake.on('GET', '/api/v1/namespaces/shop/services', (_q, r) =>
      sendJson(r, 200, list('Service', '1', [named('web', 'shop')]))
    )
    fake.on('GET', `${GRANTS}/namespaces/shop/referencegrants`, (_q, r) =>
      sendJson(r, 200, list('ReferenceGrant', '1', [named('allow', 'shop')]))
    )
    const world = await client.readWorld(['shop'])
    expect(world.gatewayClasses).toEqual([
      { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'GatewayClass', ...named('contour') }
    ])
    // the ReferenceGrant version discovery found, for the grant diagnosis suggests
    expect(world.served).toEqual({ ReferenceGrant: 'gateway.networking.k8s.io/v1beta1' })
    expect(world.gateways.map((g) => [g.kind, g.metadata.namespace])).toEqual([
      ['Gateway', 'infra']
    ])
    expect(world.namespaces.map((n) => [n.apiVersion, n.kind, n.metadata.name])).toEqual([
      ['v1', 'Namespace', 'shop']
    ])
    expect(world.services.map((s) => [s.kind, s.metadata.name])).toEqual([['Service', 'web']])
    expect(world.referenceGrants.map((g) => g.apiVersion)).toEqual([
      'gateway.networking.k8s.io/v1beta1'
    ])
    expect(world.unreadable).toEqual([])
  })

  it('records forbidden reads as sentences and falls back to per-namespace and per-name reads', async () => {
    fake.on('GET', `${GW}/gateways`, forbidden)
    fake.on('GET', `${GW}/namespaces/shop/gateways`, (_q, r) =>
      sendJson(r, 200, list('Gateway', '1', [named('gw', 'shop')]))
    )
    fake.on('GET', '/api/v1/namespaces', forbidden)
    fake.on('GET', '/api/v1/namespaces/shop', (_q, r) => sendJson(r, 200, named('shop')))
    fake.on('GET', '/api/v1/namespaces/shop/services', forbidden)
    fake.on('GET', `${GRANTS}/namespaces/shop/referencegrants`, (_q, r) =>
      sendJson(r, 200, list('ReferenceGrant', '1', []))
    )
    const world = await client.readWorld(['shop'])
    expect(world.gateways.map((g) => g.metadata.name)).toEqual(['gw'])
    expect(world.namespaces.map((n) => [n.kind, n.metadata.name])).toEqual([['Namespace', 'shop']])
    expect(world.services).toEqual([])
    expect(world.unreadable.sort()).toEqual([
      'gateways in all namespaces: forbidden (list)',
      'services in namespace shop: forbidden (list)'
    ])
  })

  it('reads only GatewayClasses and Gateways for an empty namespace list', async () => {
    fake.on('GET', `${GW}/gateways`, (_q, r) => sendJson(r, 200, list('Gateway', '1', [])))
    const world = await client.readWorld([])
    expect(world.gatewayClasses).toHaveLength(1)
    expect(fake.requestsTo('GET', /^\/api\/v1\/namespaces/)).toHaveLength(0)
    expect(fake.requestsTo('GET', /referencegrants/)).toHaveLength(0)
  })

  it('reads ListenerSets and XListenerSets where the server serves them, typed', async () => {
    fake.serveGatewayGroup({
      v1: [{ kind: 'GatewayClass' }, { kind: 'Gateway' }, { kind: 'ListenerSet' }],
      v1beta1: [{ kind: 'ReferenceGrant' }]
    })
    const X = '/apis/gateway.networking.x-k8s.io'
    fake.on('GET', X, (_q, r) =>
      sendJson(r, 200, { kind: 'APIGroup', versions: [{ version: 'v1alpha1' }] })
    )
    fake.on('GET', `${X}/v1alpha1`, (_q, r) =>
      sendJson(r, 200, {
        kind: 'APIResourceList',
        resources: [{ name: 'xlistenersets', kind: 'XListenerSet', namespaced: true }]
      })
    )
    fake.on('GET', `${GW}/gateways`, (_q, r) => sendJson(r, 200, list('Gateway', '1', [])))
    fake.on('GET', `${GW}/listenersets`, (_q, r) =>
      sendJson(r, 200, list('ListenerSet', '1', [named('team', 'shop')]))
    )
    fake.on('GET', `${X}/v1alpha1/xlistenersets`, (_q, r) =>
      sendJson(r, 200, list('XListenerSet', '1', [named('old', 'shop')]))
    )
    const world = await client.readWorld([])
    expect(world.listenerSets?.map((l) => [l.apiVersion, l.kind, l.metadata.name])).toEqual([
      ['gateway.networking.k8s.io/v1', 'ListenerSet', 'team'],
      ['gateway.networking.x-k8s.io/v1alpha1', 'XListenerSet', 'old']
    ])
    expect(world.unreadable).toEqual([])
  })

  it('degrades a forbidden ListenerSet list to per-namespace reads and a sentence', async () => {
    fake.serveGatewayGroup({
      v1: [{ kind: 'GatewayClass' }, { kind: 'Gateway' }, { kind: 'ListenerSet' }],
      v1beta1: [{ kind: 'ReferenceGrant' }]
    })
    fake.on('GET', `${GW}/gateways`, (_q, r) => sendJson(r, 200, list('Gateway', '1', [])))
    fake.on('GET', `${GW}/listenersets`, forbidden)
    fake.on('GET', `${GW}/namespaces/shop/listenersets`, (_q, r) =>
      sendJson(r, 200, list('ListenerSet', '1', [named('team', 'shop')]))
    )
    fake.on('GET', '/api/v1/namespaces', (_q, r) => sendJson(r, 200, list('Namespace', '1', [])))
    fake.on('GET', '/api/v1/namespaces/shop/services', (_q, r) =>
      sendJson(r, 200, list('Service', '1', []))
    )
    fake.on('GET', `${GRANTS}/namespaces/shop/referencegrants`, (_q, r) =>
      sendJson(r, 200, list('ReferenceGrant', '1', []))
    )
    const world = await client.readWorld(['shop'])
    expect(world.listenerSets?.map((l) => l.metadata.name)).toEqual(['team'])
    expect(world.unreadable).toEqual(['listenersets in all namespaces: forbidden (list)'])
  })

  it('fails checkNamespaces with the namespace and the cluster', async () => {
    fake.on('GET', '/api/v1/namespaces/shop', (_q, r) => sendJson(r, 200, named('shop')))
    const error = await client.checkNamespaces(['shop', 'nope']).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ClusterError)
    expect((error as Error).message).toBe(
      `Namespace "nope" not found on ${fake.url} (context local)`
    )
  })

  it('names the unreachable server and the request when the connection is refused', async () => {
    const url = fake.url
    await fake.close()
    const error = await client.checkNamespaces(['shop']).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ClusterError)
    expect((error as Error).message).toBe(
      `cannot reach ${url} (context local): connection refused (ECONNREFUSED) (get namespace shop)`
    )
    fake = await FakeApiServer.start()
  })
})

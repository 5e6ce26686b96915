import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { connect } from '../../../src/cluster/connect.ts'
import type { ClusterClient } from '../../../src/cluster/types.ts'
import { ClusterError } from '../../../src/runtime/errors.ts'
import { FAST_TUNING, FakeApiServer } from '../../helpers/fake-apiserver.ts'

describe('routeVersions (discovery)', () => {
  let fake: FakeApiServer
  let client: ClusterClient
  beforeEach(async () => {
    fake = await FakeApiServer.start()
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

  it('picks the most stable version that serves each Route kind', async () => {
    fake.serveGatewayGroup({
      v1beta1: [{ kind: 'HTTPRoute' }, { kind: 'Gateway' }],
      v1: [{ kind: 'HTTPRoute' }, { kind: 'GRPCRoute' }, { kind: 'Gateway' }],
      v1alpha2: [{ kind: 'TLSRoute' }, { kind: 'TCPRoute' }, { kind: 'HTTPRoute' }],
      v1alpha3: [{ kind: 'TLSRoute' }]
    })
    const versions = await client.routeVersions()
    expect(Object.fromEntries(versions)).toEqual({
      HTTPRoute: 'gateway.networking.k8s.io/v1',
      GRPCRoute: 'gateway.networking.k8s.io/v1',
      TLSRoute: 'gateway.networking.k8s.io/v1alpha3',
      TCPRoute: 'gateway.networking.k8s.io/v1alpha2'
    })
  })

  it('uses v1alpha2 on a server that serves nothing else', async () => {
    fake.serveGatewayGroup({
      v1alpha2: [{ kind: 'HTTPRoute' }, { kind: 'TLSRoute' }, { kind: 'UDPRoute' }]
    })
    const versions = await client.routeVersions()
    expect(versions.get('HTTPRoute')).toBe('gateway.networking.k8s.io/v1alpha2')
    expect(versions.get('UDPRoute')).toBe('gateway.networking.k8s.io/v1alpha2')
    expect(versions.has('GRPCRoute')).toBe(false)
  })

  it('asks the server once and caches the answer', async () => {
    fake.serveGatewayGroup({ v1: [{ kind: 'HTTPRoute' }] })
    await client.routeVersions()
    await client.routeVersions()
    expect(fake.requestsTo('GET', '/apis/gateway.networking.k8s.io')).toHaveLength(1)
  })

  it('says the Gateway API CRDs are missing when the group is not served', async () => {
    const error = await client.routeVersions().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ClusterError)
    expect((error as Error).message).toBe(
      `Gateway API CRDs not installed on ${fake.url} (context local): the API group gateway.networking.k8s.io is not served`
    )
  })
})

// What a dump keeps of each object's metadata: only the fields predict reads. Annotations (kubectl's
// last-applied-configuration, cloud load-balancer settings on Services) and managedFields stay in
// the cluster.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { connect } from '../../../src/cluster/connect.ts'
import type { ClusterClient } from '../../../src/cluster/types.ts'
import { FAST_TUNING, FakeApiServer, list, sendJson } from '../../helpers/fake-apiserver.ts'

const GW = '/apis/gateway.networking.k8s.io/v1'
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration'

function annotated(name: string, namespace?: string): Record<string, unknown> {
  return {
    metadata: {
      name,
      ...(namespace ? { namespace } : {}),
      labels: { team: 'shop' },
      generation: 3,
      resourceVersion: '42',
      uid: '1b4e28ba-2fa1-11d2-883f-0016d3cca427',
      creationTimestamp: '2026-12-01T10:00:00Z',
      annotations: {
        [LAST_APPLIED]: '{"apiVersion":"v1","kind":"Secret","data":{"token":"c2VjcmV0"}}',
        'service.beta.kubernetes.io/aws-load-balancer-internal': '10.0.0.0/8'
      },
      managedFields: [{ manager: 'kubectl', operation: 'Apply' }],
      ownerReferences: [{ kind: 'Deployment', name: 'web', uid: 'x' }]
    }
  }
}

describe('readDump', () => {
  let fake: FakeApiServer
  let client: ClusterClient
  beforeEach(async () => {
    fake = await FakeApiServer.start()
    fake.serveGatewayGroup({
      v1: [{ kind: 'GatewayClass' }, { kind: 'Gateway' }, { kind: 'HTTPRoute' }]
    })
    const serve = (path: string, kind: string, item: Record<string, unknown>): void => {
      fake.on('GET', path, (_q, r) => sendJson(r, 200, list(kind, '1', [item])))
    }
    serve(`${GW}/gatewayclasses`, 'GatewayClass', annotated('contour'))
    serve(`${GW}/gateways`, 'Gateway', annotated('gw', 'infra'))
    serve(`${GW}/httproutes`, 'HTTPRoute', annotated('web', 'shop'))
    serve('/api/v1/namespaces', 'Namespace', annotated('shop'))
    serve('/api/v1/services', 'Service', annotated('web', 'shop'))
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

  it('keeps only the metadata predict reads: no annotations, managedFields or owners', async () => {
    const dump = await client.readDump()
    expect(dump.objects.map((o) => o.kind).sort()).toEqual([
      'Gateway',
      'GatewayClass',
      'HTTPRoute',
      'Namespace',
      'Service'
    ])
    for (const object of dump.objects) {
      expect(Object.keys(object.metadata).sort()).toEqual(
        [
          'creationTimestamp',
          'generation',
          'labels',
          'name',
          ...(object.kind === 'GatewayClass' || object.kind === 'Namespace' ? [] : ['namespace']),
          'resourceVersion'
        ].sort()
      )
    }
    expect(JSON.stringify(dump.objects)).not.toContain('last-applied')
  })
})

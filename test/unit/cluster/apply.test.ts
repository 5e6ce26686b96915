import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { connect } from '../../../src/cluster/connect.ts'
import type { ClusterClient } from '../../../src/cluster/types.ts'
import type { ManifestDocument } from '../../../src/read/manifests.ts'
import { ClusterError, InputError } from '../../../src/runtime/errors.ts'
import type { KubeObject } from '../../../src/model/types.ts'
import {
  FAST_TUNING,
  FakeApiServer,
  sendJson,
  sendStatus,
  type RecordedRequest
} from '../../helpers/fake-apiserver.ts'

const ROUTE_PATH =
  /^\/apis\/gateway\.networking\.k8s\.io\/v1\/namespaces\/[^/]+\/httproutes\/[^/]+$/

function route(name: string, namespace?: string): KubeObject {
  return {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'HTTPRoute',
    metadata: { name, ...(namespace ? { namespace } : {}) },
    spec: { parentRefs: [{ name: 'gw' }] }
  }
}

function doc(object: KubeObject, index: number): ManifestDocument {
  return { file: 'routes.yaml', index, line: index * 10, object }
}

/** Echoes the applied body back, as the server would answer a successful apply. */
function echo(request: RecordedRequest, response: import('node:http').ServerResponse): void {
  sendJson(response, 200, { ...(JSON.parse(request.body) as object), status: {} })
}

describe('apply (server-side apply)', () => {
  let fake: FakeApiServer
  let client: ClusterClient
  beforeEach(async () => {
    fake = await FakeApiServer.start()
    fake.serveGatewayGroup({ v1: [{ kind: 'HTTPRoute' }, { kind: 'Gateway' }] })
    client = await connect({
      kubeconfig: fake.kubeconfig({ namespace: 'shop' }),
      env: {},
      mask: () => {},
      tuning: FAST_TUNING
    })
  })
  afterEach(async () => {
    client.close()
    await fake.close()
  })

  it('dry-runs every document before applying any, with the SSA request shape', async () => {
    fake.on('PATCH', ROUTE_PATH, echo)
    const result = await client.apply([doc(route('a', 'web'), 1), doc(route('b'), 2)], {
      dryRun: false
    })
    const patches = fake.requestsTo('PATCH', ROUTE_PATH)
    expect(patches.map((r) => [r.path, r.query.get('dryRun')])).toEqual([
      ['/apis/gateway.networking.k8s.io/v1/namespaces/web/httproutes/a', 'All'],
      ['/apis/gateway.networking.k8s.io/v1/namespaces/shop/httproutes/b', 'All'],
      ['/apis/gateway.networking.k8s.io/v1/namespaces/web/httproutes/a', null],
      ['/apis/gateway.networking.k8s.io/v1/namespaces/shop/httproutes/b', null]
    ])
    for (const request of patches) {
      expect(request.headers['content-type']).toBe('application/apply-patch+yaml')
      expect(request.query.get('fieldManager')).toBe('route-gate')
      expect(request.query.get('force')).toBe('true')
    }
    expect(JSON.parse(patches[0]?.body ?? '')).toEqual(route('a', 'web'))
    expect(result.applied.map((entry) => entry.object.metadata.name)).toEqual(['a', 'b'])
  })

  it('applies nothing when the second document fails its dry run, and names document and field', async () => {
    fake.on('PATCH', ROUTE_PATH, (request, response) => {
      if (request.path.endsWith('/b')) {
        sendStatus(
          response,
          422,
          'Invalid',
          'HTTPRoute.gateway.networking.k8s.io "b" is invalid: spec.hostnames[0]: Invalid value: "-bad": should match pattern'
        )
      } else echo(request, response)
    })
    const error = await client
      .apply([doc(route('a'), 1), doc(route('b'), 2), doc(route('c'), 3)], { dryRun: false })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InputError)
    expect((error as Error).message).toBe(
      'routes.yaml document 2 (HTTPRoute shop/b): HTTPRoute.gateway.networking.k8s.io "b" is invalid: spec.hostnames[0]: Invalid value: "-bad": should match pattern'
    )
    const patches = fake.requestsTo('PATCH', ROUTE_PATH)
    expect(patches.every((r) => r.query.get('dryRun') === 'All')).toBe(true)
    // 422 is not retried, and the third document is never tried
    expect(patches).toHaveLength(2)
  })

  it('applies in dependency order whatever the file order, after dry-running them all in that order', async () => {
    fake.serveGatewayGroup({
      v1: [{ kind: 'HTTPRoute' }, { kind: 'Gateway' }, { kind: 'ListenerSet' }],
      v1beta1: [{ kind: 'ReferenceGrant' }]
    })
    fake.on('PATCH', /./, echo)
    const object = (apiVersion: string, kind: string, name: string): KubeObject => ({
      apiVersion,
      kind,
      metadata: { name }
    })
    const files: [string, KubeObject][] = [
      ['a-route.yaml', route('web')],
      ['b-grant.yaml', object('gateway.networking.k8s.io/v1beta1', 'ReferenceGrant', 'allow')],
      ['c-gateway.yaml', object('gateway.networking.k8s.io/v1', 'Gateway', 'edge')],
      ['d-service.yaml', object('v1', 'Service', 'web')],
      ['e-listenerset.yaml', object('gateway.networking.k8s.io/v1', 'ListenerSet', 'team')],
      ['f-namespace.yaml', object('v1', 'Namespace', 'shop')],
      ['g-config.yaml', object('v1', 'ConfigMap', 'settings')],
      ['h-route.yaml', route('api')]
    ]
    const docs = files.map(([file, o]) => ({ file, index: 1, line: 1, object: o }))
    const result = await client.apply(docs, { dryRun: false })
    const order = [
      'namespaces/shop',
      'services/web',
      'configmaps/settings',
      'referencegrants/allow',
      'gateways/edge',
      'listenersets/team',
      'httproutes/web',
      'httproutes/api'
    ]
    const patches = fake.requestsTo('PATCH', /./)
    const seen = patches.map((r) => [/[^/]+\/[^/]+$/.exec(r.path)?.[0], r.query.get('dryRun')])
    expect(seen).toEqual([...order.map((o) => [o, 'All']), ...order.map((o) => [o, null])])
    expect(result.applied.map((a) => a.doc.file)).toEqual([
      'f-namespace.yaml',
      'd-service.yaml',
      'g-config.yaml',
      'b-grant.yaml',
      'c-gateway.yaml',
      'e-listenerset.yaml',
      'a-route.yaml',
      'h-route.yaml'
    ])
  })

  it('stops after the dry run when dryRun is set', async () => {
    fake.on('PATCH', ROUTE_PATH, echo)
    const result = await client.apply([doc(route('a'), 1)], { dryRun: true })
    expect(fake.requestsTo('PATCH', ROUTE_PATH).map((r) => r.query.get('dryRun'))).toEqual(['All'])
    expect(result.applied).toHaveLength(1)
  })

  it('strips server-owned fields and keeps fields unknown to client models', async () => {
    const path = '/api/v1/namespaces/shop/services/web'
    fake.on('PATCH', path, echo)
    const service: KubeObject = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: {
        name: 'web',
        resourceVersion: '42',
        uid: 'u-1',
        creationTimestamp: '2026-01-01T00:00:00Z',
        managedFields: [{ manager: 'kubectl' }]
      } as KubeObject['metadata'],
      spec: { ports: [{ port: 80 }], futureField: 'kept' },
      status: { loadBalancer: {} }
    }
    await client.apply([doc(service, 1)], { dryRun: true })
    const [request] = fake.requestsTo('PATCH', path)
    expect(JSON.parse(request?.body ?? '')).toEqual({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web' },
      spec: { ports: [{ port: 80 }], futureField: 'kept' }
    })
  })

  it('rejects a kind the server does not serve before sending any patch', async () => {
    const error = await client
      .apply([doc({ ...route('a'), kind: 'FooRoute' }, 1)], { dryRun: false })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InputError)
    expect((error as Error).message).toContain('does not serve kind FooRoute')
    expect(fake.requestsTo('PATCH', /./)).toHaveLength(0)
  })

  it('turns 403 into a ClusterError naming verb, resource, namespace and user', async () => {
    fake.on('PATCH', ROUTE_PATH, (_request, response) =>
      sendStatus(
        response,
        403,
        'Forbidden',
        'httproutes.gateway.networking.k8s.io "a" is forbidden: User "system:serviceaccount:ci:deployer" cannot patch resource "httproutes" in API group "gateway.networking.k8s.io" in the namespace "shop"'
      )
    )
    const error = await client
      .apply([doc(route('a'), 1)], { dryRun: false })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ClusterError)
    expect((error as Error).message).toBe(
      `forbidden: cannot patch httproutes in namespace shop (user system:serviceaccount:ci:deployer) on ${fake.url} (context local)`
    )
    expect(fake.requestsTo('PATCH', ROUTE_PATH)).toHaveLength(1)
  })

  it('retries a 503 and then succeeds', async () => {
    let calls = 0
    fake.on('PATCH', ROUTE_PATH, (request, response) => {
      calls++
      if (calls === 1) sendStatus(response, 503, 'ServiceUnavailable', 'etcd leader changed')
      else echo(request, response)
    })
    await client.apply([doc(route('a'), 1)], { dryRun: true })
    expect(calls).toBe(2)
  })
})

import type { ServerResponse } from 'node:http'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { connect } from '../../../src/cluster/connect.ts'
import type { ClusterClient, RouteScope, RouteWatchHandlers } from '../../../src/cluster/types.ts'
import { MAX_WATCH_LINE_BYTES } from '../../../src/cluster/request.ts'
import { ClusterError } from '../../../src/runtime/errors.ts'
import type { RouteObject } from '../../../src/model/types.ts'
import {
  FAST_TUNING,
  FakeApiServer,
  list,
  openStream,
  sendJson,
  sendStatus,
  status,
  type RecordedRequest
} from '../../helpers/fake-apiserver.ts'

const COLLECTION = '/apis/gateway.networking.k8s.io/v1/namespaces/shop/httproutes'

/** A client of the fake API server with the given retry and watch timings. */
function connectTo(fake: FakeApiServer, tuning: typeof FAST_TUNING): Promise<ClusterClient> {
  return connect({ kubeconfig: fake.kubeconfig(), env: {}, mask: () => {}, tuning })
}
const SCOPE: RouteScope = { kinds: ['HTTPRoute'], namespaces: ['shop'], labelSelector: 'app=web' }

/** A list item as the server sends it: without apiVersion and kind. */
function item(name: string, resourceVersion: string): Record<string, unknown> {
  return { metadata: { name, namespace: 'shop', resourceVersion }, spec: {} }
}

function event(name: string, resourceVersion: string): Record<string, unknown> {
  return {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'HTTPRoute',
    ...item(name, resourceVersion)
  }
}

type Responder = (request: RecordedRequest, response: ServerResponse) => void

/** Serves the collection: list and watch requests each take the next scripted answer; the last one repeats. */
function script(fake: FakeApiServer, lists: Responder[], watches: Responder[]): void {
  let listCalls = 0
  let watchCalls = 0
  fake.on('GET', COLLECTION, (request, response) => {
    if (request.query.get('watch') === 'true') {
      const answer = watches[Math.min(watchCalls++, watches.length - 1)]
      answer?.(request, response)
    } else {
      const answer = lists[Math.min(listCalls++, lists.length - 1)]
      answer?.(request, response)
    }
  })
}

const listOf =
  (resourceVersion: string, ...names: string[]): Responder =>
  (_request, response) =>
    sendJson(
      response,
      200,
      list(
        'HTTPRoute',
        resourceVersion,
        names.map((n) => item(n, '1'))
      )
    )

/** A watch that stays open and silent. */
const hang: Responder = (_request, response) => void openStream(response)

function recorder(): RouteWatchHandlers & {
  lists: RouteObject[][]
  changes: [string, RouteObject][]
  retries: string[]
  recovered: number
} {
  const recorded = {
    lists: [] as RouteObject[][],
    changes: [] as [string, RouteObject][],
    retries: [] as string[],
    recovered: 0
  }
  return {
    ...recorded,
    onList: (_kind, _namespace, routes) => recorded.lists.push(routes),
    onChange: (type, route) => recorded.changes.push([type, route]),
    onRetry: (message) => recorded.retries.push(message),
    onRecovered: () => recorded.recovered++,
    get lists() {
      return recorded.lists
    },
    get changes() {
      return recorded.changes
    },
    get retries() {
      return recorded.retries
    },
    get recovered() {
      return recorded.recovered
    }
  }
}

describe('watchRoutes and listRoutes', () => {
  let fake: FakeApiServer
  let client: ClusterClient
  let stop: AbortController
  beforeEach(async () => {
    fake = await FakeApiServer.start()
    fake.serveGatewayGroup({ v1: [{ kind: 'HTTPRoute' }] })
    client = await connectTo(fake, FAST_TUNING)
    stop = new AbortController()
  })
  afterEach(async () => {
    stop.abort()
    client.close()
    await fake.close()
  })

  const watches = (): RecordedRequest[] =>
    fake.requestsTo('GET', COLLECTION).filter((r) => r.query.get('watch') === 'true')
  const lists = (): RecordedRequest[] =>
    fake.requestsTo('GET', COLLECTION).filter((r) => r.query.get('watch') !== 'true')

  it('ends with a ClusterError naming the object and the limit for an event too long to read, never retried', async () => {
    script(
      fake,
      [listOf('10')],
      [
        (_request, response) => {
          const stream = openStream(response)
          stream.send('ADDED', event('fine', '11'))
          // kind and metadata come first, as the API server writes them, then more than 16 MiB
          response.write(
            `{"type":"MODIFIED","object":{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"huge","namespace":"shop"},"spec":{"padding":"${'x'.repeat(MAX_WATCH_LINE_BYTES + 1024)}"}}}\n`
          )
        }
      ]
    )
    const handlers = recorder()
    const error = await client.watchRoutes(SCOPE, handlers, stop.signal).then(
      () => undefined,
      (e: unknown) => e
    )
    expect(error).toBeInstanceOf(ClusterError)
    expect((error as Error).message).toMatch(
      new RegExp(
        `^https://127\\.0\\.0\\.1:\\d+ sent a watch event longer than ${MAX_WATCH_LINE_BYTES} bytes \\(HTTPRoute shop/huge\\), the most route-gate reads`
      )
    )
    expect(watches()).toHaveLength(1)
    expect(handlers.retries).toEqual([])
  })

  it('drops managedFields from delivered Routes (thousands are held in memory)', async () => {
    const withFields = {
      ...item('a', '1'),
      metadata: {
        name: 'a',
        namespace: 'shop',
        resourceVersion: '1',
        managedFields: [{ manager: 'kubectl' }]
      }
    }
    script(
      fake,
      [(_request, response) => sendJson(response, 200, list('HTTPRoute', '10', [withFields]))],
      [hang]
    )
    const handlers = recorder()
    const done = client.watchRoutes(SCOPE, handlers, stop.signal)
    await vi.waitFor(() => expect(handlers.lists).toHaveLength(1))
    stop.abort()
    await done
    expect(handlers.lists[0]?.[0]?.metadata).toEqual({
      name: 'a',
      namespace: 'shop',
      resourceVersion: '1'
    })
  })

  it('opens no watch when a handler ends the run during the list (a watch then would outlive the run)', async () => {
    script(fake, [listOf('10', 'a')], [hang])
    const handlers = recorder()
    await client.watchRoutes(SCOPE, { ...handlers, onList: () => stop.abort() }, stop.signal)
    expect(lists()).toHaveLength(1)
    expect(watches()).toHaveLength(0)
  })

  it('lists, watches from the list resourceVersion, and re-watches from the last one seen after a normal close', async () => {
    script(
      fake,
      [listOf('10', 'a')],
      [
        (_request, response) => {
          const stream = openStream(response)
          stream.send('ADDED', event('b', '11'))
          stream.send('BOOKMARK', {
            apiVersion: 'gateway.networking.k8s.io/v1',
            kind: 'HTTPRoute',
            metadata: { resourceVersion: '12' }
          })
          stream.end()
        },
        hang
      ]
    )
    const handlers = recorder()
    const done = client.watchRoutes(SCOPE, handlers, stop.signal)
    await vi.waitFor(() => expect(watches()).toHaveLength(2))
    stop.abort()
    await done

    expect(lists()[0]?.query.get('labelSelector')).toBe('app=web')
    const [first, second] = watches()
    expect(first?.query.get('resourceVersion')).toBe('10')
    expect(first?.query.get('allowWatchBookmarks')).toBe('true')
    expect(first?.query.get('timeoutSeconds')).toBe('5')
    expect(first?.query.get('labelSelector')).toBe('app=web')
    expect(second?.query.get('resourceVersion')).toBe('12')
    expect(lists()).toHaveLength(1)
    expect(handlers.lists).toHaveLength(1)
    expect(handlers.lists[0]?.[0]).toEqual({
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'HTTPRoute',
      ...item('a', '1')
    })
    expect(handlers.changes).toEqual([['ADDED', event('b', '11')]])
    expect(Object.getPrototypeOf(handlers.changes[0]?.[1])).toBe(Object.prototype)
    expect(handlers.retries).toEqual([])
  })

  it('relists on an ERROR event with code 410 inside the stream', async () => {
    script(
      fake,
      [listOf('10', 'a'), listOf('20', 'a', 'b')],
      [
        (_request, response) => {
          const stream = openStream(response)
          stream.send('ERROR', status(410, 'Expired', 'too old resource version: 10 (15)'))
          stream.end()
        },
        hang
      ]
    )
    const handlers = recorder()
    const done = client.watchRoutes(SCOPE, handlers, stop.signal)
    await vi.waitFor(() => expect(watches()).toHaveLength(2))
    stop.abort()
    await done
    expect(lists()).toHaveLength(2)
    expect(watches()[1]?.query.get('resourceVersion')).toBe('20')
    expect(handlers.lists.map((routes) => routes.map((r) => r.metadata.name))).toEqual([
      ['a'],
      ['a', 'b']
    ])
    expect(handlers.retries).toEqual([])
  })

  it('relists when the watch request itself answers 410 Gone', async () => {
    script(
      fake,
      [listOf('10'), listOf('30')],
      [
        (_request, response) => sendStatus(response, 410, 'Expired', 'too old resource version'),
        hang
      ]
    )
    const handlers = recorder()
    const done = client.watchRoutes(SCOPE, handlers, stop.signal)
    await vi.waitFor(() => expect(watches()).toHaveLength(2))
    stop.abort()
    await done
    expect(lists()).toHaveLength(2)
    expect(watches()[1]?.query.get('resourceVersion')).toBe('30')
  })

  it('retries 503 and 429 with backoff, reporting the fault once and its recovery', async () => {
    script(
      fake,
      [
        (_request, response) =>
          sendStatus(response, 503, 'ServiceUnavailable', 'apiserver is shutting down'),
        (_request, response) =>
          sendStatus(response, 429, 'TooManyRequests', 'slow down', { 'Retry-After': '1' }),
        listOf('10', 'a')
      ],
      [hang]
    )
    const handlers = recorder()
    const done = client.watchRoutes(SCOPE, handlers, stop.signal)
    await vi.waitFor(() => expect(watches()).toHaveLength(1))
    stop.abort()
    await done
    expect(lists()).toHaveLength(3)
    expect(handlers.retries).toEqual([
      `list httproutes in namespace shop on ${fake.url} (context local): HTTP 503: apiserver is shutting down`
    ])
    expect(handlers.recovered).toBe(1)
    expect(handlers.lists).toHaveLength(1)
  })

  it('retries a connection reset', async () => {
    let resets = 0
    script(
      fake,
      [listOf('10')],
      [
        (request, response) => {
          if (resets++ === 0) response.socket?.destroy()
          else hang(request, response)
        }
      ]
    )
    const handlers = recorder()
    const done = client.watchRoutes(SCOPE, handlers, stop.signal)
    await vi.waitFor(() => expect(watches()).toHaveLength(2))
    stop.abort()
    await done
    expect(handlers.retries).toHaveLength(1)
    expect(handlers.retries[0]).toMatch(/^watch httproutes in namespace shop on .*\)$/)
    expect(lists()).toHaveLength(1)
    expect(watches()[1]?.query.get('resourceVersion')).toBe('10')
  })

  it('rejects at once on 403, naming verb, resource, namespace and host', async () => {
    script(
      fake,
      [
        (_request, response) =>
          sendStatus(
            response,
            403,
            'Forbidden',
            'httproutes.gateway.networking.k8s.io is forbidden: User "alice" cannot list resource "httproutes" in API group "gateway.networking.k8s.io" in the namespace "shop"'
          )
      ],
      [hang]
    )
    const handlers = recorder()
    const error = await client.watchRoutes(SCOPE, handlers, stop.signal).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ClusterError)
    expect((error as Error).message).toBe(
      `forbidden: cannot list httproutes in namespace shop (user alice) on ${fake.url} (context local)`
    )
    expect(lists()).toHaveLength(1)
    expect(handlers.retries).toEqual([])
  })

  it('delivers only the named Routes', async () => {
    script(
      fake,
      [listOf('10', 'a', 'b')],
      [
        (_request, response) => {
          const stream = openStream(response)
          stream.send('MODIFIED', event('b', '11'))
          stream.send('DELETED', event('a', '12'))
        }
      ]
    )
    const handlers = recorder()
    const done = client.watchRoutes(
      { ...SCOPE, names: [{ kind: 'HTTPRoute', namespace: 'shop', name: 'a' }] },
      handlers,
      stop.signal
    )
    await vi.waitFor(() => expect(handlers.changes).toHaveLength(1))
    stop.abort()
    await done
    expect(handlers.lists[0]?.map((r) => r.metadata.name)).toEqual(['a'])
    expect(handlers.changes.map(([type, route]) => [type, route.metadata.name])).toEqual([
      ['DELETED', 'a']
    ])
  })

  it('restarts a watch that stays silent for twice its timeoutSeconds', async () => {
    client.close()
    client = await connectTo(fake, { ...FAST_TUNING, watchTimeoutSeconds: 1 })
    script(fake, [listOf('10')], [hang])
    const handlers = recorder()
    const done = client.watchRoutes(SCOPE, handlers, stop.signal)
    await vi.waitFor(() => expect(watches()).toHaveLength(2), { timeout: 6000, interval: 100 })
    stop.abort()
    await done
    expect(handlers.retries).toEqual([
      `watch httproutes in namespace shop on ${fake.url} (context local): no event or bookmark for 2 s`
    ])
    expect(watches()[1]?.query.get('resourceVersion')).toBe('10')
  })

  it('keeps a watch that sends bookmarks more often than the silence limit (the limit is idle time, not total)', async () => {
    client.close()
    client = await connectTo(fake, { ...FAST_TUNING, watchTimeoutSeconds: 1 })
    const timers: NodeJS.Timeout[] = []
    script(
      fake,
      [listOf('10')],
      [
        (_request, response) => {
          const stream = openStream(response)
          let version = 10
          timers.push(
            setInterval(() => {
              version++
              stream.send('BOOKMARK', {
                kind: 'HTTPRoute',
                metadata: { resourceVersion: String(version) }
              })
            }, 400)
          )
        }
      ]
    )
    const handlers = recorder()
    const done = client.watchRoutes(SCOPE, handlers, stop.signal)
    await new Promise((resolve) => setTimeout(resolve, 3500))
    stop.abort()
    await done
    for (const timer of timers) clearInterval(timer)
    expect(watches()).toHaveLength(1)
    expect(handlers.retries).toEqual([])
  })

  it("a watch answered 403: a ClusterError naming the user from the server's Status", async () => {
    script(
      fake,
      [listOf('10')],
      [
        (_request, response) =>
          sendStatus(
            response,
            403,
            'Forbidden',
            'httproutes.gateway.networking.k8s.io is forbidden: User "alice" cannot watch resource "httproutes"'
          )
      ]
    )
    const error = await client.watchRoutes(SCOPE, recorder(), stop.signal).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ClusterError)
    expect((error as Error).message).toBe(
      `forbidden: cannot watch httproutes in namespace shop (user alice) on ${fake.url} (context local)`
    )
    expect(watches()).toHaveLength(1)
  })

  it('resolves on abort even while a request has no answer yet', async () => {
    fake.on('GET', COLLECTION, () => {})
    const done = client.watchRoutes(SCOPE, recorder(), stop.signal)
    await vi.waitFor(() => expect(lists()).toHaveLength(1))
    stop.abort()
    await expect(done).resolves.toBeUndefined()
  })

  it('lists Routes in all namespaces with the label selector, filtered by name', async () => {
    fake.on('GET', '/apis/gateway.networking.k8s.io/v1/httproutes', (_request, response) =>
      sendJson(response, 200, list('HTTPRoute', '5', [item('a', '1'), item('b', '2')]))
    )
    const routes = await client.listRoutes({
      kinds: ['HTTPRoute', 'TLSRoute'],
      namespaces: 'all',
      labelSelector: 'team=shop',
      names: [{ kind: 'HTTPRoute', namespace: 'shop', name: 'b' }]
    })
    expect(routes).toEqual([
      { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'HTTPRoute', ...item('b', '2') }
    ])
    const [request] = fake.requestsTo('GET', '/apis/gateway.networking.k8s.io/v1/httproutes')
    expect(request?.query.get('labelSelector')).toBe('team=shop')
  })
})

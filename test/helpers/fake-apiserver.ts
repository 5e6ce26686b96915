// A loopback imitation of the Kubernetes API server for contract tests of src/cluster: HTTPS on
// 127.0.0.1 (kubectl sends credentials only over TLS; the kubeconfig sets insecure-skip-tls-verify),
// discovery served from a table of kinds, every request recorded, and handlers registered per test.
import http from 'node:http'
import https from 'node:https'
import type { AddressInfo, Socket } from 'node:net'
import { authenticationFor, type Authenticate } from '../../src/cluster/credentials.ts'
import { loadKubeConfig } from '../../src/cluster/kubeconfig.ts'
import { testPki } from './recording-server.ts'

export interface RecordedRequest {
  method: string
  path: string
  query: URLSearchParams
  headers: http.IncomingHttpHeaders
  /** as sent: a header given more than once appears once per value */
  rawHeaders: string[]
  body: string
}

export type Handler = (
  request: RecordedRequest,
  response: http.ServerResponse
) => void | Promise<void>

interface Registration {
  method: string
  path: string | RegExp
  handle: Handler
}

export interface FakeKind {
  kind: string
  plural?: string
  namespaced?: boolean
}

const GATEWAY_GROUP = 'gateway.networking.k8s.io'

export function sendJson(
  response: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {}
): void {
  response.writeHead(status, { 'Content-Type': 'application/json', ...headers })
  response.end(JSON.stringify(body))
}

export function status(code: number, reason: string, message: string): Record<string, unknown> {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    code
  }
}

export function sendStatus(
  response: http.ServerResponse,
  code: number,
  reason: string,
  message: string,
  headers: Record<string, string> = {}
): void {
  sendJson(response, code, status(code, reason, message), headers)
}

/** A chunked watch stream: one JSON event per line. */
export function openStream(response: http.ServerResponse): {
  send(type: string, object: unknown): void
  end(): void
} {
  response.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' })
  response.flushHeaders()
  return {
    send: (type, object) => response.write(`${JSON.stringify({ type, object })}\n`),
    end: () => response.end()
  }
}

export function list(kind: string, resourceVersion: string, items: unknown[]): unknown {
  return { apiVersion: 'v1', kind: `${kind}List`, metadata: { resourceVersion }, items }
}

function pluralOf(kind: string): string {
  const lower = kind.toLowerCase()
  return lower.endsWith('s') ? `${lower}es` : `${lower}s`
}

function resourceList(groupVersion: string, kinds: FakeKind[]): unknown {
  return {
    kind: 'APIResourceList',
    groupVersion,
    resources: kinds.flatMap(({ kind, plural, namespaced }) => {
      const name = plural ?? pluralOf(kind)
      const namespacedValue = namespaced ?? kind !== 'GatewayClass'
      return [
        { name, kind, namespaced: namespacedValue, verbs: ['get', 'list', 'watch', 'patch'] },
        { name: `${name}/status`, kind, namespaced: namespacedValue, verbs: ['get', 'patch'] }
      ]
    })
  }
}

export class FakeApiServer {
  readonly requests: RecordedRequest[] = []
  private readonly registrations: Registration[] = []
  private readonly sockets = new Set<Socket>()

  private constructor(
    private readonly server: https.Server,
    readonly url: string
  ) {}

  static async start(): Promise<FakeApiServer> {
    const server = https.createServer(testPki().server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    const fake = new FakeApiServer(server, `https://127.0.0.1:${port}`)
    server.on('connection', (socket) => {
      fake.sockets.add(socket as Socket)
      socket.on('close', () => fake.sockets.delete(socket as Socket))
    })
    server.on('request', (request, response) => void fake.dispatch(request, response))
    fake.serveCoreDiscovery()
    return fake
  }

  /** Later registrations take precedence, so a test can override a default. */
  on(method: string, path: string | RegExp, handle: Handler): this {
    this.registrations.unshift({ method, path, handle })
    return this
  }

  /** Serves /apis/gateway.networking.k8s.io and each version's resource list. */
  serveGatewayGroup(versions: Record<string, FakeKind[]>): this {
    const names = Object.keys(versions)
    this.on('GET', `/apis/${GATEWAY_GROUP}`, (_request, response) =>
      sendJson(response, 200, {
        kind: 'APIGroup',
        name: GATEWAY_GROUP,
        versions: names.map((version) => ({
          groupVersion: `${GATEWAY_GROUP}/${version}`,
          version
        })),
        preferredVersion: { groupVersion: `${GATEWAY_GROUP}/${names[0]}`, version: names[0] }
      })
    )
    for (const [version, kinds] of Object.entries(versions)) {
      this.on('GET', `/apis/${GATEWAY_GROUP}/${version}`, (_request, response) =>
        sendJson(response, 200, resourceList(`${GATEWAY_GROUP}/${version}`, kinds))
      )
    }
    return this
  }

  requestsTo(method: string, path: string | RegExp): RecordedRequest[] {
    return this.requests.filter(
      (request) =>
        request.method === method &&
        (typeof path === 'string' ? request.path === path : path.test(request.path))
    )
  }

  kubeconfig(
    options: { context?: string; namespace?: string; token?: string; server?: string } = {}
  ): string {
    return tokenKubeconfig({ server: this.url, ...options })
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }

  private serveCoreDiscovery(): void {
    this.on('GET', '/api/v1', (_request, response) =>
      sendJson(
        response,
        200,
        resourceList('v1', [
          { kind: 'Namespace', namespaced: false },
          { kind: 'Service' },
          { kind: 'ConfigMap' }
        ])
      )
    )
  }

  private async dispatch(
    incoming: http.IncomingMessage,
    response: http.ServerResponse
  ): Promise<void> {
    const chunks: Buffer[] = []
    for await (const chunk of incoming) chunks.push(chunk as Buffer)
    const url = new URL(incoming.url ?? '/', this.url)
    const request: RecordedRequest = {
      method: incoming.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: incoming.headers,
      rawHeaders: incoming.rawHeaders,
      body: Buffer.concat(chunks).toString('utf8')
    }
    this.requests.push(request)
    const match = this.registrations.find(
      (registration) =>
        registration.method === request.method &&
        (typeof registration.path === 'string'
          ? registration.path === request.path
          : registration.path.test(request.path))
    )
    if (!match) {
      sendStatus(response, 404, 'NotFound', `the server could not find the requested resource`)
      return
    }
    await match.handle(request, response)
  }
}

/** Client timing for tests against this server: short timeouts and backoff, few retries. */
export const FAST_TUNING = {
  requestTimeoutMs: 2_000,
  watchTimeoutSeconds: 5,
  retry: { retries: 3, minTimeoutMs: 10, maxTimeoutMs: 50, maxRetryTimeMs: 5_000 }
}

/**
 * A kubeconfig of one context whose user has a bearer token. `cluster` is the cluster's lines other
 * than its server (TLS trust); by default it skips TLS verification.
 */
export function tokenKubeconfig(options: {
  server: string
  context?: string
  namespace?: string
  token?: string
  cluster?: string[]
}): string {
  const context = options.context ?? 'local'
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: fake',
    '  cluster:',
    `    server: ${options.server}`,
    ...(options.cluster ?? ['insecure-skip-tls-verify: true']).map((line) => `    ${line}`),
    'users:',
    '- name: tester',
    '  user:',
    `    token: ${options.token ?? 'fake-token-123'}`,
    'contexts:',
    `- name: ${context}`,
    '  context:',
    '    cluster: fake',
    '    user: tester',
    ...(options.namespace ? [`    namespace: ${options.namespace}`] : []),
    `current-context: ${context}`,
    ''
  ].join('\n')
}

/** The authentication of a kubeconfig's current context, for an ApiRequester of one's own. */
export async function authenticationOf(kubeconfig: string): Promise<Authenticate> {
  const loaded = await loadKubeConfig({ kubeconfig, env: {}, mask: () => {} })
  return authenticationFor(loaded, `${loaded.server} (context ${loaded.contextName})`, () => {})
}

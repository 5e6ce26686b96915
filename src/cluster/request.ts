// A small generic request helper on Node's own HTTP client, with the kubeconfig context's TLS
// material, authentication and proxy (credentials.ts: exec plugins and auth-providers included).
// Used instead of the generated API classes because it sends bodies as is (the typed classes and
// KubernetesObjectApi drop fields their models do not know), returns JSON as received
// (plain objects, no model instances with Date fields), works the same for core (/api/v1) and grouped
// (/apis/...) paths, and gives every call one timeout. Not client-node's fetch transport: that builds
// a new connection pool, so a new TLS handshake and socket, for every request (a one-Route gate held
// twelve open); here requests share keep-alive connections. Watches read their stream here too
// (`stream`): lines up to a length limit, given up after a silence limit.
import http from 'node:http'
import https from 'node:https'
import { ClusterError } from '../runtime/errors.ts'
import type { Applied, Authenticate } from './credentials.ts'
import { ApiError, describeFault, faultCode, proxyStatus, type Fault } from './errors.ts'

/** A list of thousands of Routes is tens of MiB; an answer past this is no API server's. */
export const MAX_RESPONSE_BYTES = 256 * 1024 * 1024
/** A watch event is one object (etcd keeps at most 1.5 MiB by default); a longer line is no event. */
export const MAX_WATCH_LINE_BYTES = 16 * 1024 * 1024

/**
 * "HTTPRoute shop/web" from the start of a watch event (kind and metadata come first in what the API
 * server writes), else the resource the watch was on.
 */
function describeObject(head: string, path: string): string {
  const field = (name: string): string | undefined =>
    new RegExp(`"${name}"\\s*:\\s*"([^"\\\\]{1,253})"`).exec(head)?.[1]
  const kind = field('kind')
  const name = field('name')
  if (kind === undefined || name === undefined) return `watch of ${path}`
  const namespace = field('namespace')
  return `${kind} ${namespace === undefined ? '' : `${namespace}/`}${name}`
}

export type Query = Record<string, string | number | boolean | undefined>

export interface StreamOptions {
  query?: Query
  /** the caller's cancellation */
  signal?: AbortSignal
  /** how long the server may send nothing (its answer included) before the stream is given up */
  idleMs: number
  /** called once the server answered 2xx */
  onOpen?: () => void
  /** each line, without its newline */
  onLine: (line: string) => void
  maxLineBytes?: number
}

function timeoutError(): DOMException {
  return new DOMException('The operation was aborted due to timeout', 'TimeoutError')
}

/** the head of a line kept to name the object it carries */
const LINE_HEAD_BYTES = 64 * 1024

/**
 * Splits `body` into lines for `onLine`. A line longer than `maxLineBytes` ends the read with
 * `tooLong(its head)`: a server (or whatever answers in its place) that never sends a newline must
 * not grow one line until memory runs out.
 */
async function readLines(
  body: AsyncIterable<Uint8Array>,
  maxLineBytes: number,
  onChunk: () => void,
  onLine: (line: string) => void,
  tooLong: (head: string) => Error
): Promise<void> {
  let pending: Uint8Array[] = []
  let pendingBytes = 0
  const take = (last: Uint8Array): string => {
    const line = Buffer.concat([...pending, last]).toString('utf8')
    pending = []
    pendingBytes = 0
    return line
  }
  for await (const chunk of body) {
    onChunk()
    for (let start = 0; start < chunk.length;) {
      const newline = chunk.indexOf(10, start)
      const end = newline < 0 ? chunk.length : newline
      if (pendingBytes + end - start > maxLineBytes) {
        const parts = [...pending, chunk.subarray(start, end)]
        const head = Buffer.concat(parts, Math.min(LINE_HEAD_BYTES, pendingBytes + end - start))
        throw tooLong(head.toString('utf8'))
      }
      if (newline < 0) {
        pending.push(chunk.subarray(start))
        pendingBytes += chunk.length - start
        break
      }
      onLine(take(chunk.subarray(start, newline)))
      start = newline + 1
    }
  }
  if (pendingBytes > 0) onLine(take(new Uint8Array()))
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export interface RequestOptions {
  query?: Query
  /** serialized as JSON (JSON is valid YAML, so this also serves application/apply-patch+yaml) */
  body?: unknown
  contentType?: string
  /** the caller's cancellation; combined with the per-request timeout */
  signal?: AbortSignal
}

/**
 * How long a server that never answered may refuse or drop connections before the run ends (with
 * retry.ts's backoff, the run ends 3.5-7 s after the first attempt): a wrong address or a cluster
 * that is down must not cost the whole timeout. After a first answer, the retries of retry.ts ride
 * out a restarting API server as before.
 */
export const FIRST_CONTACT_MS = 3_000

const present = <T>(value: T | undefined): value is T => value !== undefined

/**
 * The failure to report: once `signal` has aborted, its reason (a TimeoutError for a timeout), not
 * the AbortError or reset socket that the HTTP client shows for it.
 */
function reasonIf(signal: AbortSignal, error: unknown): Error {
  const reason: unknown = signal.aborted ? signal.reason : error
  return reason instanceof Error ? reason : new Error(String(reason))
}

export class ApiRequester {
  /**
   * Keep-alive connections shared by every request. Node's agent keeps one pool per TLS material
   * (CA, client certificate and key, server name…), so an exec plugin's new certificate gets new
   * connections. A kubeconfig proxy-url uses the proxy agent client-node builds instead.
   */
  private readonly agents = {
    'https:': new https.Agent({ keepAlive: true }),
    'http:': new http.Agent({ keepAlive: true })
  }
  /** some request got an HTTP answer: transport faults from now on are worth retrying */
  private contacted = false
  private firstSentAt: number | undefined
  /**
   * The latest transient failure ("HTTP 503: … (GET /apis/…)"), until a request succeeds again: what
   * to name when a fault outlasts the run's deadline.
   */
  lastFault: string | undefined

  /**
   * What to name when the run's deadline passes: a credential command still running (the deadline's
   * close kills it), else the latest transient failure.
   */
  currentFault(): string | undefined {
    return this.authenticate.stillRunning?.() ?? this.lastFault
  }

  constructor(
    private readonly authenticate: Authenticate,
    private readonly server: string,
    private readonly timeoutMs: number,
    /** aborts every request in flight when the client closes */
    private readonly closing?: AbortSignal,
    private readonly maxResponseBytes = MAX_RESPONSE_BYTES,
    /** "https://host:port (context name)", for the one line that says where a first contact failed */
    private readonly description = server,
    private readonly firstContactMs = FIRST_CONTACT_MS
  ) {
    closing?.addEventListener(
      'abort',
      () => Object.values(this.agents).forEach((agent) => agent.destroy()),
      { once: true }
    )
  }

  /** Resolves with the parsed JSON body; rejects with ApiError (body: the raw text) on non-2xx. */
  async request<T>(method: Method, path: string, options: RequestOptions = {}): Promise<T> {
    this.firstSentAt ??= Date.now()
    try {
      const body = await this.send<T>(method, path, options)
      this.contacted = true
      this.lastFault = undefined
      return body
    } catch (error) {
      this.refuseProxyAuthentication(error)
      const fault = describeFault(error)
      if (fault.status !== undefined) this.contacted = true
      else if (!this.contacted && !fault.aborted) this.failFirstContact(error, fault)
      if (fault.transient) {
        const problem =
          fault.status === undefined ? fault.message : `HTTP ${fault.status}: ${fault.message}`
        this.lastFault = `${problem} (${method} ${path})`
      }
      throw error
    }
  }

  /**
   * A proxy-url's proxy that answers 407 (to the tunnel's CONNECT, or to the request it forwards) is
   * no fault of the API server, and no retry gets past it: one ClusterError naming the proxy.
   */
  private refuseProxyAuthentication(error: unknown): void {
    const { proxy } = this.authenticate
    if (proxy === undefined || proxyStatus(error) !== 407) return
    throw new ClusterError(
      `the proxy ${proxy} refused authentication (HTTP 407 Proxy Authentication Required) on the way to ${this.description}: check the user and password in the kubeconfig's proxy-url`
    )
  }

  /**
   * Before any answer, a name that does not resolve fails at once and a refused or dropped
   * connection once FIRST_CONTACT_MS have passed, as a ClusterError that retry.ts does not retry.
   */
  private failFirstContact(error: unknown, fault: Fault): void {
    const trying = Date.now() - (this.firstSentAt ?? Date.now())
    const code = faultCode(error)
    if (code !== 'ENOTFOUND' && trying < this.firstContactMs) return
    const since =
      code === 'ENOTFOUND' ? '' : ` (still, after ${this.firstContactMs / 1000} s of retries)`
    throw new ClusterError(
      `cannot reach ${this.description}: ${fault.message}${since}; ${firstContactAdvice(code, this.server)}`
    )
  }

  private async send<T>(method: Method, path: string, options: RequestOptions): Promise<T> {
    const signals = [AbortSignal.timeout(this.timeoutMs), options.signal, this.closing]
    const signal = AbortSignal.any(signals.filter(present))
    const response = await this.open(method, path, { ...options, signal })
    await this.refuseUnlessOk(response, `${method} ${path}`, signal)
    return JSON.parse(await this.readBody(response, `${method} ${path}`, signal)) as T
  }

  /** Throws the ApiError of an answer that is not 2xx, its body read; a 2xx answer is left unread. */
  private async refuseUnlessOk(
    response: http.IncomingMessage,
    request: string,
    signal: AbortSignal
  ): Promise<void> {
    const status = response.statusCode ?? 0
    if (status >= 200 && status <= 299) return
    const body = await this.readBody(response, request, signal)
    const headers = Object.fromEntries(
      Object.entries(response.headers).map(([name, value]) => [
        name,
        Array.isArray(value) ? value.join(', ') : (value ?? '')
      ])
    )
    throw new ApiError(status, body, headers)
  }

  /**
   * Sends the request with the context's authentication and TLS; resolves with the answer once
   * its headers have arrived.
   */
  private async open(
    method: Method,
    path: string,
    options: RequestOptions & { signal: AbortSignal }
  ): Promise<http.IncomingMessage> {
    const url = new URL(this.server.replace(/\/+$/, '') + path)
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value))
    }
    const applied: Applied = { headers: {} }
    await this.authenticate(applied, options.signal)
    const body = options.body === undefined ? undefined : JSON.stringify(options.body)
    const headers: http.OutgoingHttpHeaders = {
      ...applied.headers,
      Accept: 'application/json',
      'User-Agent': 'route-gate'
    }
    if (body !== undefined) {
      headers['Content-Type'] = options.contentType ?? 'application/json'
      headers['Content-Length'] = Buffer.byteLength(body)
    }
    const protocol = url.protocol === 'http:' ? 'http:' : 'https:'
    const agent = applied.agent ?? this.agents[protocol]
    const client = protocol === 'http:' ? http : https
    const { signal } = options
    return new Promise((resolve, reject) => {
      if (signal.aborted) {
        reject(reasonIf(signal, undefined))
        return
      }
      // Aborting ends the request only until its answer has arrived whole: by then keep-alive may
      // have handed the socket on to another request, which destroying this one would break.
      let answer: http.IncomingMessage | undefined
      const request = client.request(url, { ...applied, agent, method, headers }, (response) => {
        answer = response
        response.once('close', done)
        resolve(response)
      })
      const onAbort = (): void => {
        if (answer?.complete !== true) request.destroy(reasonIf(signal, undefined))
      }
      const done = (): void => signal.removeEventListener('abort', onAbort)
      signal.addEventListener('abort', onAbort, { once: true })
      request.once('close', done)
      request.on('error', (error) => reject(reasonIf(signal, error)))
      request.end(body)
    })
  }

  /**
   * A GET whose answer is a stream of lines (a watch), on the same transport as `request`. Resolves
   * when the server ends the stream. Rejects with an ApiError on a non-2xx answer, a TimeoutError
   * after `idleMs` without a byte (waiting for the answer included), a ClusterError for a line longer
   * than `maxLineBytes` (a definite failure: reopening the stream would cut it again), or the
   * transport's error.
   */
  async stream(path: string, options: StreamOptions): Promise<void> {
    const idle = new AbortController()
    let timer: NodeJS.Timeout | undefined
    const heard = (): void => {
      clearTimeout(timer)
      timer = setTimeout(() => idle.abort(timeoutError()), options.idleMs)
      timer.unref()
    }
    const signal = AbortSignal.any([idle.signal, options.signal, this.closing].filter(present))
    heard()
    try {
      const response = await this.open('GET', path, { query: options.query, signal })
      await this.refuseUnlessOk(response, `GET ${path}`, signal)
      heard()
      options.onOpen?.()
      const maxLineBytes = options.maxLineBytes ?? MAX_WATCH_LINE_BYTES
      await readLines(response, maxLineBytes, heard, options.onLine, (head) => {
        return new ClusterError(
          `${this.server} sent a watch event longer than ${maxLineBytes} bytes (${describeObject(head, path)}), the most route-gate reads; an object that large is no Route a controller keeps: check what writes it, or gate fewer Routes per watch (selector, namespace)`
        )
      }).catch((error: unknown) => {
        throw reasonIf(signal, error)
      })
    } catch (error) {
      if (idle.signal.aborted && !(error instanceof ClusterError)) throw timeoutError()
      throw error
    } finally {
      clearTimeout(timer)
    }
  }

  /** The body as text, read up to the byte limit: what the server sends is not trusted to end. */
  private async readBody(
    body: AsyncIterable<Uint8Array>,
    request: string,
    signal: AbortSignal
  ): Promise<string> {
    const decoder = new TextDecoder()
    let text = ''
    let bytes = 0
    try {
      for await (const chunk of body) {
        bytes += chunk.byteLength
        if (bytes > this.maxResponseBytes) {
          throw new ClusterError(
            `${this.server} sent more than ${this.maxResponseBytes} bytes in answer to ${request}, the most route-gate reads; the server or a proxy in front of it is broken`
          )
        }
        text += decoder.decode(chunk, { stream: true })
      }
    } catch (error) {
      throw reasonIf(signal, error)
    }
    return text + decoder.decode()
  }
}

/** What to check when the first contact with a server fails, by what failed. */
function firstContactAdvice(code: string | undefined, server: string): string {
  const host = new URL(server).hostname
  switch (code) {
    case 'ENOTFOUND':
      return `the host name ${host} does not resolve: check the server address in the kubeconfig (and this runner's DNS)`
    case 'ECONNREFUSED':
      return `nothing accepts connections there: check that the API server runs and that the kubeconfig's server address and port are right`
    case 'ECONNRESET':
      return `the connection was dropped: check for a proxy or firewall between this runner and the API server, and that the port serves HTTPS`
    default:
      return `check that this runner can reach ${host} (network, firewall, VPN) and that the kubeconfig's server address is right`
  }
}

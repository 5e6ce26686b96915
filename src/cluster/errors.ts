// One place that understands how the API server and Node's HTTP client fail, so every caller can tell
// a transient fault (retry it) from a permanent one (report it), and every message names host, verb,
// resource and namespace without ever carrying a credential.
import { ClusterError, InputError } from '../runtime/errors.ts'
import { redactSecrets, withoutUserinfo } from './secrets.ts'

/**
 * A non-2xx answer of the API server: its status, its body as received (a V1Status, mostly) and its
 * headers (Retry-After). Ours rather than client-node's ApiException, so a gate need not load
 * client-node to tell a 404 from a 403.
 */
export class ApiError extends Error {
  override name = 'ApiError'
  constructor(
    readonly code: number,
    readonly body: string,
    /** lower-case names; a repeated header's values joined by ", " */
    readonly headers: Record<string, string>
  ) {
    super(`HTTP ${code}`)
  }
}

/** Whether the API server answered `error`'s request with `code` (404 Not Found, 403 Forbidden). */
export function answeredWith(error: unknown, code: number): error is ApiError {
  return error instanceof ApiError && error.code === code
}

/** What went wrong, in one shape, whatever threw it. */
export interface Fault {
  /** HTTP status, when the server answered */
  status?: number
  /** V1Status reason (Forbidden, NotFound, Invalid, Expired, …) */
  reason?: string
  /** the server's message, or a short description of the transport failure */
  message: string
  /** worth retrying: network, timeout, 429, 5xx */
  transient: boolean
  /** from Retry-After on a 429/503 */
  retryAfterMs?: number
  /** the caller's own abort: never a fault to report */
  aborted?: boolean
}

/** The request a fault belongs to, for messages: "list httproutes in namespace shop". */
export interface Operation {
  verb: string
  resource: string
  /** undefined: cluster-scoped; null: all namespaces */
  namespace?: string | null
}

/** A failure reported inside a watch stream (an ERROR event carrying a V1Status). */
export class WatchStatusError extends Error {
  override name = 'WatchStatusError'
  constructor(
    readonly status: number,
    readonly reason: string | undefined,
    message: string
  ) {
    super(message)
  }
}

interface V1StatusLike {
  code?: number
  reason?: string
  message?: string
}

const TRANSIENT_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN'
])

const SOCKET_DESCRIPTIONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  ETIMEDOUT: 'connection timed out',
  EAI_AGAIN: 'DNS lookup failed'
}

export function parseStatusBody(body: unknown): V1StatusLike | undefined {
  if (typeof body === 'object' && body !== null) return body
  if (typeof body !== 'string' || body === '') return undefined
  try {
    const parsed: unknown = JSON.parse(body)
    return typeof parsed === 'object' && parsed !== null ? parsed : undefined
  } catch {
    return undefined
  }
}

function httpFault(
  status: number,
  statusBody: V1StatusLike | undefined,
  retryAfter?: string
): Fault {
  const seconds = retryAfter === undefined ? NaN : Number(retryAfter)
  return {
    status,
    reason: statusBody?.reason,
    message: statusBody?.message ?? `HTTP ${status}`,
    transient: status === 429 || status >= 500,
    ...(Number.isFinite(seconds) && seconds >= 0 ? { retryAfterMs: seconds * 1000 } : {})
  }
}

/**
 * The HTTP status a proxy answered: client-node's proxy agent (hpagent) fails the tunnel's CONNECT
 * with "Bad response: 407"; a proxy that answers the forwarded request itself gives an ApiError.
 */
export function proxyStatus(error: unknown): number | undefined {
  if (error instanceof ApiError) return error.code
  const status =
    error instanceof Error ? /^Bad response: (\d{3})$/.exec(error.message)?.[1] : undefined
  return status === undefined ? undefined : Number(status)
}

/** The Node error code behind a transport failure (ECONNREFUSED, ENOTFOUND, …), if any. */
export function faultCode(error: unknown): string | undefined {
  return error instanceof Error ? causeCode(error) : undefined
}

function causeCode(error: Error): string | undefined {
  let current: unknown = error
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string') return code
    current = current.cause
  }
  return undefined
}

/**
 * `faultOf`, never quoting a URL's `user:password@` (a transport error can name the server) or a
 * masked value (a server's error body can echo the token it was sent).
 */
export function describeFault(error: unknown): Fault {
  const fault = faultOf(error)
  return { ...fault, message: redactSecrets(withoutUserinfo(fault.message)) }
}

function faultOf(error: unknown): Fault {
  if (error instanceof ApiError) {
    return httpFault(error.code, parseStatusBody(error.body), error.headers['retry-after'])
  }
  if (error instanceof WatchStatusError) {
    return { ...httpFault(error.status, { reason: error.reason }), message: error.message }
  }
  if (error instanceof DOMException || (error instanceof Error && error.name === 'AbortError')) {
    if (error.name === 'TimeoutError') return { message: 'no answer in time', transient: true }
    return { message: 'aborted', transient: false, aborted: true }
  }
  if (error instanceof Error) {
    // Watch reports a non-200 answer as a plain Error with statusCode (the body is not kept).
    const statusCode = (error as { statusCode?: unknown }).statusCode
    if (typeof statusCode === 'number') return httpFault(statusCode, { message: error.message })
    const code = causeCode(error)
    if (code !== undefined) {
      if (TRANSIENT_SOCKET_CODES.has(code) || code === 'ENOTFOUND') {
        return {
          message: `${SOCKET_DESCRIPTIONS[code] ?? 'network error'} (${code})`,
          transient: true
        }
      }
      if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/.test(code)) {
        return {
          message: `TLS certificate rejected (${code}): check the kubeconfig's certificate-authority and that the server's certificate covers its address`,
          transient: false
        }
      }
    }
    return { message: error.message, transient: false }
  }
  return { message: String(error), transient: false }
}

export function describeOperation(op: Operation): string {
  const where =
    op.namespace === undefined
      ? ''
      : op.namespace === null
        ? ' in all namespaces'
        : ` in namespace ${op.namespace}`
  return `${op.verb} ${op.resource}${where}`
}

function userOf(message: string): string | undefined {
  return /User "([^"]+)"/.exec(message)?.[1]
}

/**
 * The user-facing error for a failed request. `server` is "https://host:port (context name)".
 * Invalid objects are the caller's business (InputError); access and reachability are ClusterErrors.
 */
export function toClusterError(
  error: unknown,
  op: Operation,
  server: string
): ClusterError | InputError {
  if (error instanceof ClusterError || error instanceof InputError) return error
  const fault = describeFault(error)
  const what = describeOperation(op)
  const [verb, ...rest] = what.split(' ')
  const target = rest.join(' ')
  switch (fault.status) {
    case 401:
      return new ClusterError(
        `unauthorized: ${server} rejected the credentials (${what}); check the kubeconfig user's token or certificate`
      )
    case 403: {
      const user = userOf(fault.message)
      return new ClusterError(
        `forbidden: cannot ${verb} ${target}${user === undefined ? '' : ` (user ${user})`} on ${server}`
      )
    }
    case undefined:
      return new ClusterError(`cannot reach ${server}: ${fault.message} (${what})`)
    default:
      return new ClusterError(`${what} failed on ${server}: HTTP ${fault.status}: ${fault.message}`)
  }
}

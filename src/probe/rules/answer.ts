// What one answer of the data plane means (pure): routed to the Route's backend, the listener's own
// "no route" answer, a gateway error, or no answer at all. A status code alone cannot say it: a
// backend may itself answer 404, so an answer is routed when it differs from what the same listener
// answers for a hostname and path no Route claims.
import type { ProbeRequest } from './plan-requests.ts'

/** The error code of an answer the target guard refused to ask for (see http.ts). */
export const TARGET_REFUSED = 'ROUTE_GATE_TARGET_REFUSED'

/** An answer as the HTTP client got it: every header, the first bytes of the body. */
export interface RawAnswer {
  status?: number
  /** lower-case names */
  headers: Record<string, string>
  body: string
  durationMs: number
  /** no answer: a Node error code (ECONNREFUSED, ETIMEDOUT, ERR_TLS_CERT_ALTNAME_INVALID, …) */
  error?: { code: string; message: string }
}

export interface StatusRange {
  from: number
  to: number
}

export type AnswerKind =
  | 'routed'
  /** no request was sent: the target guard refused the address */
  | 'refused'
  /** the same answer as the listener's no-route answer (or 421: the data plane refused the host) */
  | 'no-route'
  /** 404 where no no-route answer could be had to compare with */
  | 'unproven-404'
  | 'gateway-error'
  /** answered, but by the backend of another Route that wins the request by precedence */
  | 'shadowed'
  | 'unexpected-status'
  | 'tls-error'
  | 'unreachable'

/** Two answers to the no-route requests, each with the request that got it. */
export type NoRouteAnswers = [
  { request: ProbeRequest; answer: RawAnswer },
  { request: ProbeRequest; answer: RawAnswer }
]

const GATEWAY_ERRORS = new Set([500, 502, 503, 504])

export function isTlsError(code: string): boolean {
  return /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/.test(
    code
  )
}

export function classify(
  request: ProbeRequest,
  answer: RawAnswer,
  noRoute: NoRouteAnswers | undefined,
  expect: StatusRange[] | undefined
): AnswerKind {
  if (answer.error?.code === TARGET_REFUSED) return 'refused'
  if (answer.error) return isTlsError(answer.error.code) ? 'tls-error' : 'unreachable'
  const status = answer.status ?? 0
  if (noRoute && sameAnswer(request, answer, noRoute)) return 'no-route'
  if (request.shadowedBy !== undefined) return 'shadowed'
  if (expect) return inRanges(status, expect) ? 'routed' : 'unexpected-status'
  if (GATEWAY_ERRORS.has(status)) return 'gateway-error'
  if (status === 421) return 'no-route'
  if (status === 404 && !noRoute) return 'unproven-404'
  return 'routed'
}

export function inRanges(status: number, ranges: StatusRange[]): boolean {
  return ranges.some((r) => status >= r.from && status <= r.to)
}

/**
 * Same status and content type as the no-route answer, and the same body when the no-route body is
 * stable (the two no-route answers agree once their own host and path are taken out). A body that
 * varies (a request id) is not compared: a differing body must not pass for "routed".
 */
function sameAnswer(request: ProbeRequest, answer: RawAnswer, noRoute: NoRouteAnswers): boolean {
  const [a, b] = noRoute
  if (answer.status !== a.answer.status) return false
  if ((answer.headers['content-type'] ?? '') !== (a.answer.headers['content-type'] ?? '')) {
    return false
  }
  const stable = normalized(a.request, a.answer.body) === normalized(b.request, b.answer.body)
  return !stable || normalized(request, answer.body) === normalized(a.request, a.answer.body)
}

function normalized(request: ProbeRequest, body: string): string {
  const pathOnly = request.path.split('?')[0] ?? request.path
  return body.split(request.host).join('\u0000host').split(pathOnly).join('\u0000path')
}

/** The no-route answers are usable when both came back with a status. */
export function usableNoRoute(
  answers: { request: ProbeRequest; answer: RawAnswer }[]
): NoRouteAnswers | undefined {
  const [a, b] = answers
  if (!a || !b || a.answer.status === undefined || b.answer.status === undefined) return undefined
  return [a, b]
}

// What a probe's last answer means and what to do about it (pure), and the answer as the report
// keeps it: the headers that name no secret, control characters removed; the body and every header
// only with traffic-show-body (the report file keeps them, no public rendering shows them).
// Everything in an answer was written by whoever answered; the renderers escape it again.
import type { AnswerKind, RawAnswer, StatusRange } from './answer.ts'
import { requestUrl, type ProbeRequest } from './plan-requests.ts'
import { stripControl, truncate } from '../../model/plain-text.ts'
import type { ProbeAnswer, Problem, ProbeResult } from '../../model/types.ts'
import type { ParentPlan } from './plan-requests.ts'

/**
 * What any reader may see of an answer; a location loses its query and fragment and any user:password,
 * which may carry a token.
 */
const SAFE_HEADERS = ['content-type', 'content-length', 'server', 'via', 'location']
/** Masked even in the report file: they carry sessions and credentials. */
const SECRET_HEADERS = new Set([
  'set-cookie',
  'authorization',
  'www-authenticate',
  'proxy-authenticate',
  'proxy-authorization'
])
const HEADER_CHARS = 200
const EXCERPT_CHARS = 200
const ERROR_CHARS = 300

export function reportAnswer(
  request: ProbeRequest,
  answer: RawAnswer,
  showBody: boolean
): ProbeAnswer {
  const headers: Record<string, string> = {}
  for (const name of SAFE_HEADERS) {
    const value = answer.headers[name]
    if (value === undefined) continue
    headers[name] = clean(name === 'location' ? withoutSecrets(value) : value, HEADER_CHARS)
  }
  const excerpt = showBody ? clean(answer.body, EXCERPT_CHARS) : ''
  const allHeaders = showBody
    ? Object.fromEntries(
        Object.entries(answer.headers).map(([name, value]) => [
          name,
          SECRET_HEADERS.has(name) ? '(masked)' : clean(value, HEADER_CHARS)
        ])
      )
    : {}
  return {
    method: request.method,
    url: clean(requestUrl(request), 1000),
    address: `${request.address}:${request.port}`,
    ...(answer.status !== undefined && { status: answer.status }),
    ...(Object.keys(headers).length > 0 && { headers }),
    durationMs: answer.durationMs,
    ...(answer.error && {
      error: clean(`${answer.error.code}: ${answer.error.message}`, ERROR_CHARS)
    }),
    ...(excerpt !== '' && { excerpt }),
    ...(Object.keys(allHeaders).length > 0 && { allHeaders })
  }
}

function withoutSecrets(location: string): string {
  return location.replace(/[?#].*$/s, '').replace(/^((?:[a-z][a-z\d+.-]*:)?\/\/)[^/]*@/i, '$1')
}

function clean(text: string, max: number): string {
  return truncate(stripControl(text).replace(/\s+/g, ' ').trim(), max)
}

export interface Explanation {
  /** what the answer means, one sentence */
  why: string
  remediation: string
}

export function explainAnswer(
  kind: Exclude<AnswerKind, 'routed' | 'refused'>,
  request: ProbeRequest,
  answer: RawAnswer,
  expect: StatusRange[] | undefined
): Explanation {
  const url = requestUrl(request)
  const status = answer.status ?? 0
  const rule = request.rule === undefined ? '' : ` (rule ${request.rule})`
  switch (kind) {
    case 'no-route':
      return {
        why: `${request.method} ${url}${rule} got the listener's own "no route" answer (${status}), the same as for a hostname and path no Route claims.`,
        remediation:
          "The data plane does not route this request to the Route yet. Either the controller's configuration has not reached the data plane (check the controller's logs for errors while it syncs), or another Route attached to the same listener wins this match: Gateway API gives a request to the Route with the most specific match (exact path over prefix, longer prefix, more headers), and among equals to the oldest Route. Look for Routes with the same hostname and an overlapping path."
      }
    case 'unproven-404':
      return {
        why: `${request.method} ${url}${rule} got 404, and the listener serves every hostname to this Route, so there is no "no route" answer to tell the backend's 404 from the data plane's.`,
        remediation:
          'If the backend answers 404 on this path by design, pin the answers it gives with expect-status (e.g. 200-499). Otherwise the data plane has not taken the Route yet, or another Route wins this match.'
      }
    case 'gateway-error':
      return status === 503
        ? {
            why: `${request.method} ${url}${rule} got 503: the data plane took the request but had no healthy endpoint to send it to.`,
            remediation:
              'Check that the backend Service has ready endpoints (kubectl get endpointslices -l kubernetes.io/service-name=<service>) and that its Pods pass their readiness probes; the controller may also still be pushing the endpoints to the data plane.'
          }
        : status === 500
          ? {
              why: `${request.method} ${url}${rule} got 500: some data planes (Traefik) answer 500 when they cannot resolve the backend (no endpoints, a missing ReferenceGrant); otherwise the backend itself failed.`,
              remediation:
                "Check the backend Service's endpoints and the Route's backendRefs, then the backend's own logs. If the backend answers 500 on this path by design, pin its answers with expect-status."
            }
          : {
              why: `${request.method} ${url}${rule} got ${status}: the data plane reached no working backend (${status === 504 ? 'the backend did not answer in time' : 'the backend connection failed'}).`,
              remediation:
                "Check that the Service's targetPort is the port the container listens on, and the backend Pods' logs; a 502 or 504 right after a rollout can also be Pods that are not ready yet."
            }
    case 'shadowed':
      return {
        why: `${request.method} ${url}${rule} got ${status}, but not from this Route: ${request.shadowedBy ?? 'another Route wins it'}.`,
        remediation:
          "Gateway API gives a request to the Route with the most specific hostname, then the most specific match (an Exact path over a prefix, a longer prefix, a method, more header and query matches), then to the oldest Route. Make this Route's hostname or match more specific, or change or remove the other Route, if this Route is meant to serve the request."
      }
    case 'unexpected-status':
      return {
        why: `${request.method} ${url}${rule} got ${status}, outside expect-status (${formatRanges(expect ?? [])}).`,
        remediation:
          "The request reached something that answers differently from what this run expects: check which backend answered (the headers and excerpt below) and the Route's backendRefs, or widen expect-status if the answer is right."
      }
    case 'tls-error':
      return {
        why: `${request.method} ${url}${rule}: the TLS handshake failed (${answer.error?.code ?? 'unknown'}), so the answer cannot be trusted.`,
        remediation: `The certificate the Gateway presents for ${request.host} is not valid for it: check the listener's certificateRefs (the Secret's certificate must cover ${request.host} and be current). If it is issued by a private CA, give that CA with traffic-ca; skipping verification (traffic-skip-tls-verify) also skips this check.`
      }
    case 'unreachable':
      return {
        why: `${request.scheme}://${request.address}:${request.port} could not be reached (${answer.error?.code ?? 'unknown'}).`,
        remediation: `route-gate could not reach the Gateway's address from where it runs: a private load balancer, a cluster-internal IP or a firewall in between. Give an address this runner can reach with gateway-address (a port-forward, an internal load balancer), or run the gate where the Gateway is reachable. If the address is right, check that the data plane listens on port ${request.port}.`
      }
  }
}

export function formatRanges(ranges: StatusRange[]): string {
  return ranges.map((r) => (r.from === r.to ? String(r.from) : `${r.from}-${r.to}`)).join(',')
}

type NotProbed = Extract<ParentPlan, { notProbed: string }>

const NOT_PROBED_REMEDY: Record<Exclude<NotProbed['cause'], 'unsupported'>, string> = {
  refused:
    "route-gate never sends requests to a cloud metadata service and, when a Gateway's status names it, to a link-local, unspecified, broadcast or multicast address or one outside traffic-allowed-cidrs: whoever can write that status could otherwise steer this runner into its own network. If the Gateway is reachable at another address, give it with gateway-address; if traffic-allowed-cidrs is set, check that it covers the Gateway's address.",
  'no-address':
    "The controller has not written an address into the Gateway's status (it may still be provisioning a load balancer). Give the address route-gate should send requests to with gateway-address.",
  'no-gateway':
    "Grant route-gate list on gateways (gateway.networking.k8s.io) in the Gateway's namespace, so that it can read the listeners and the address to send requests to.",
  unbuildable:
    'Make the Route reachable through an HTTP or HTTPS listener of its Gateway with at least one rule whose match is a path (Exact or PathPrefix), or gate this Route without verify-traffic.',
  'not-started':
    'Fix what keeps the other Routes from being ready (see their problems), or give the gate a longer timeout.'
}

/** A parent no request was sent to: a warning when unsupported, else a failure that says why. */
/** A parent's probes as the verdict takes them: their result, and why the parent is not serving. */
export interface ProbeOutcome {
  result: ProbeResult
  /** why the parent is not serving, for the report; undefined when serving */
  problem?: Problem
}

export function notProbedOutcome(plan: NotProbed): ProbeOutcome {
  const why = plan.notProbed
  const problem: Problem =
    plan.cause === 'unsupported'
      ? {
          reason: 'NotProbed',
          severity: 'warning',
          title: 'Traffic not verified: judged by its status only',
          message: why,
          remediation:
            'verify-traffic builds HTTP requests for HTTPRoutes on Gateways only; this parent is ready by its status conditions, which say the controller took the Route, not that the data plane serves it.'
        }
      : {
          reason: 'NotProbed',
          severity: 'error',
          title:
            plan.cause === 'refused'
              ? 'Traffic not probed: the Gateway address is refused'
              : 'Traffic could not be verified',
          message: why,
          remediation: NOT_PROBED_REMEDY[plan.cause]
        }
  return { result: { state: 'not-probed', why }, problem }
}

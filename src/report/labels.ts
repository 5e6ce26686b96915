// Plain-text names shared by every rendering. They are raw cluster text: each renderer escapes them for
// its medium.

import { GATEWAY_GROUP } from '../model/types.ts'
import type { ChainLink, Condition, ParentRef, Problem, ProbeResult } from '../model/types.ts'
export { routeId } from '../model/route-id.ts'

/** "infra/edge (listener https)" for a Gateway; other parents (mesh Services) carry their kind. */
export function parentLabel(ref: ParentRef): string {
  const isGateway = ref.kind === 'Gateway' && ref.group === GATEWAY_GROUP
  const scope = [
    ref.sectionName === undefined
      ? undefined
      : `${isGateway ? 'listener' : 'section'} ${ref.sectionName}`,
    ref.port === undefined ? undefined : `port ${ref.port}`
  ].filter((part) => part !== undefined)
  const name = `${isGateway ? '' : `${ref.kind} `}${ref.namespace}/${ref.name}`
  return scope.length === 0 ? name : `${name} (${scope.join(', ')})`
}

/** "4.2s", "1m 4s", "2h 5m". */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, ms) / 1000
  if (seconds < 60) return `${seconds.toFixed(1)}s`
  const whole = Math.round(seconds)
  if (whole < 3600) return `${Math.floor(whole / 60)}m ${whole % 60}s`
  return `${Math.floor(whole / 3600)}h ${Math.floor((whole % 3600) / 60)}m`
}

/** "Accepted=False (NotAllowedByListeners)", "Accepted=True"; "stale" when the controller has not seen the spec. */
export function conditionLabel(condition: Condition): string {
  const reason = condition.reason === condition.type ? undefined : condition.reason
  const details = [reason, condition.fresh === false ? 'stale' : undefined].filter(
    (part) => part !== undefined && part !== ''
  )
  const base = `${condition.type}=${condition.status}`
  return details.length === 0 ? base : `${base} (${details.join(', ')})`
}

/** "Accepted / NotAllowedByListeners", or the reason alone for synthetic problems. */
export function problemReason(problem: Problem): string {
  return problem.condition === undefined
    ? problem.reason
    : `${problem.condition} / ${problem.reason}`
}

/** "HTTPRoute shop/web → Gateway infra/edge → ✗ Service shop/api:8080": each label through `text`, broken links marked. */
export function chainLabel(
  chain: ChainLink[],
  mark: Record<ChainLink['state'], string>,
  text: (label: string) => string
): string {
  return chain
    .map((link) => `${mark[link.state]}${mark[link.state] ? ' ' : ''}${text(link.label)}`)
    .join(' → ')
}

/** "traffic: serving (200 in 12 ms)", "traffic: unreachable (ECONNREFUSED)", "traffic: not probed". */
export function probeLabel(probe: ProbeResult): string {
  const state = probe.state.replace('-', ' ')
  const last = probe.last
  const answer =
    last === undefined
      ? undefined
      : last.status !== undefined
        ? `${last.status} in ${last.durationMs} ms`
        : last.error?.split(':')[0]
  const tls = probe.tlsVerified === false ? ', TLS not verified' : ''
  return `traffic: ${state}${answer === undefined ? '' : ` (${answer}${tls})`}`
}

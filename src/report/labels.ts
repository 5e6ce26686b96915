// Plain-text names shared by every rendering. They are raw cluster text: each renderer escapes them for
// its medium.

import { parseCondition } from '../model/entries.ts'
import { formatParentRef, normalizeParentRef } from '../model/parent-ref.ts'
import type {
  ChainLink,
  Condition,
  Mode,
  Prediction,
  Problem,
  ProbeResult
} from '../model/types.ts'
import { arrayField, stringField } from '../model/unknown.ts'
import { formatDuration } from '../model/plain-text.ts'
export { formatDuration } from '../model/plain-text.ts'
export { formatParentRef } from '../model/parent-ref.ts'
export { routeId } from '../model/route-id.ts'

/**
 * Who wrote a problem's message: a controller, or predict saying what a controller would write, or,
 * where predict abstains or no controller will write anything, predict's own finding.
 */
export function messageLabel(mode: Mode, problem: Pick<Problem, 'reason'>): string {
  if (mode !== 'predict') return 'controller says'
  if (problem.reason === 'Unpredictable') return 'cannot tell'
  return problem.reason === 'NoStatus' ? 'predict finds' : 'a controller would write'
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

/** "infra/old#http by projectcontour.io/gateway-controller: Accepted=True, ResolvedRefs=True" for a status entry no parentRef claims. */
export function orphanLabel(entry: Record<string, unknown>, routeNamespace: string): string {
  const parent = formatParentRef(normalizeParentRef(entry.parentRef, routeNamespace))
  const controller = stringField(entry, 'controllerName')
  const conditions = (arrayField(entry, 'conditions') ?? []).flatMap(
    (raw) => parseCondition(raw) ?? []
  )
  return `${parent}${controller ? ` by ${controller}` : ''}${conditions.length > 0 ? `: ${conditions.map(conditionLabel).join(', ')}` : ''}`
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

/** Which kinds a dump without route-gate dump's header was taken to list in full, and why. */
function completeness(source: Prediction['source']): string[] {
  if (source.partial) {
    return [
      'The dump is declared partial: no kind in it is taken to be listed in full, so what it lacks is unknown, not absent.'
    ]
  }
  const assumed = source.assumedComplete ?? []
  if (assumed.length === 0) return []
  return [
    `Taken to list in full every kind it holds some of: ${assumed.join(', ')} (a dump cut by namespace or label needs partial-dump, snapshot-partial in the Action).`
  ]
}

/**
 * What a prediction rests on, one plain sentence each: where the cluster objects came from and how old
 * they are, how far each controller agreed with predict on its own Routes, and what predict could not
 * see or did not take.
 */
export function predictionLines(prediction: Prediction): string[] {
  const { source } = prediction
  const where = [
    source.context ? `context ${source.context}` : undefined,
    source.cluster ? `server ${source.cluster}` : undefined
  ].filter((part) => part !== undefined)
  const age =
    source.ageSeconds === undefined ? undefined : `${formatDuration(source.ageSeconds * 1000)} old`
  const origin =
    source.kind === 'live'
      ? `Predicted against the live cluster (read-only${where.length > 0 ? `, ${where.join(', ')}` : ''}).`
      : source.kind === 'dump'
        ? source.takenAt === undefined
          ? 'Predicted against a dump that does not say when it was taken (not written by route-gate dump): its age is unknown.'
          : `Predicted against a dump taken ${source.takenAt}${age ? ` (${age})` : ''}${where.length > 0 ? ` from ${where.join(', ')}` : ''}.`
        : 'Predicted from the manifests alone: no cluster objects.'
  return [
    origin,
    ...completeness(source),
    ...prediction.calibration.map(
      (c) =>
        `${c.controllerName} agrees with predict on ${c.agrees} of ${c.of} existing Routes${c.distrusted.length > 0 ? `; it disagrees on ${c.distrusted.join(', ')}, which are not predicted for it` : ''}.`
    ),
    ...prediction.newGateways.map(
      (g) =>
        `Gateway ${g} is new in the manifests: predicted from its spec; no controller has seen it yet.`
    ),
    ...prediction.unknownReasons,
    ...prediction.ignored.map(
      (d) =>
        `Ignored ${d.file}:${d.line}${d.kind ? ` (${d.kind}${d.name ? ` ${d.name}` : ''})` : ''}: ${d.why}`
    )
  ]
}

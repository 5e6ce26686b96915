// Evidence for route-gate's own reasons about status that is old, incomplete or absent
// (StaleStatus, ConditionMissing, ConditionUnknown, NoParentRefs, NotSynced).
import { controllerLabel } from '../wording/controllers.ts'
import type { Diagnosis, DiagnosisContext } from './context.ts'
import {
  capitalize,
  describeCondition,
  formatDuration,
  listing,
  quoted
} from '../wording/phrasing.ts'
import { patchFix } from './fixes.ts'
import { isRecord } from '../model/unknown.ts'
import { readEntries } from '../model/entries.ts'
import { formatParentRef, parentRefKey } from '../model/parent-ref.ts'
import { stringField } from '../model/unknown.ts'
import { conditionsOf } from '../rules/world.ts'
import type { Condition } from '../model/types.ts'

export function explainStaleStatus(context: DiagnosisContext): Diagnosis {
  const { finding } = context
  const controllerName = finding.controllerName ?? context.parent?.controllerName ?? undefined
  const who = controllerLabel(controllerName)
  const evidence: string[] = []
  const { generation, observedGeneration } = finding
  const what = finding.condition ?? 'The status'
  const behind =
    generation !== undefined && observedGeneration !== undefined
      ? generation - observedGeneration
      : undefined
  if (behind !== undefined) {
    evidence.push(
      `${what} was written for generation ${observedGeneration}; the Route is at generation ${generation} (${behind} generation${behind === 1 ? '' : 's'} behind).`
    )
  }
  const changed = finding.lastTransitionTime ? Date.parse(finding.lastTransitionTime) : NaN
  if (!Number.isNaN(changed)) {
    const age = ageOf(changed, context)
    evidence.push(
      `${what} last changed at ${finding.lastTransitionTime ?? ''}${age ? `, ${age.text}` : ''}.`
    )
    if (age) {
      // the spec changed after the controller last wrote this status, which is at or after the
      // transition: the age of the transition bounds the lag from above, never from below
      evidence.push(
        `The spec changed after that, so ${who} has been behind for at most ${formatDuration(age.ms)}.`
      )
    }
  }
  const target = generation === undefined ? 'the current spec' : `generation ${generation}`
  const alive = controllerName
    ? currentElsewhere(context, controllerName, Number.isNaN(changed) ? undefined : changed)
    : undefined
  if (alive) evidence.push(`${who} wrote status for the current spec of ${alive}.`)
  return {
    title:
      behind !== undefined
        ? `Status is ${behind} generation${behind === 1 ? '' : 's'} behind the Route (observed ${observedGeneration}, current ${generation})`
        : 'The status describes an older generation of the Route',
    remediation: alive
      ? `${who} is running (it wrote current status for ${alive}) but has not processed ${target} of this Route: it may not have reached it yet, or it cannot process it. Read its logs for this Route.`
      : `${who} has not processed ${target} of this Route: it is lagging or stopped. Check that its pods run and read their logs for this Route; a Route it cannot parse can also stall it.`,
    evidence
  }
}

/** "42m before now", "3h 5m before the newest timestamp in the dump (…)"; none without a clock. */
function ageOf(at: number, context: DiagnosisContext): { ms: number; text: string } | undefined {
  const { now } = context
  if (!now) return undefined
  const ms = now.getTime() - at
  const before =
    context.clock === 'dump'
      ? `before the newest timestamp in the dump (${now.toISOString()})`
      : 'before now'
  return { ms, text: `${formatDuration(ms)} ${before}` }
}

/**
 * Another parent of this Route, or another Route, whose status the same controller wrote for the
 * current generation, no earlier than `since`: proof that the controller runs.
 */
function currentElsewhere(
  context: DiagnosisContext,
  controllerName: string,
  since: number | undefined
): string | undefined {
  const recent = (conditions: Condition[]): boolean =>
    since === undefined ||
    conditions.some(
      (c) => c.lastTransitionTime !== undefined && Date.parse(c.lastTransitionTime) >= since
    )
  for (const parent of context.parents ?? []) {
    if (parent === context.parent || parent.controllerName !== controllerName) continue
    const proven = parent.conditions.filter((c) => c.observedGeneration !== undefined)
    if (proven.length > 0 && proven.every((c) => c.fresh !== false) && recent(proven)) {
      return `parent ${formatParentRef(parent.parentRef)} of this Route`
    }
  }
  return (
    currentOwnEntry(context, controllerName, recent) ??
    currentOtherRoute(context, controllerName, recent) ??
    (since === undefined ? undefined : currentGateway(context, controllerName, recent))
  )
}

type Recent = (conditions: Condition[]) => boolean

/**
 * An entry of this Route's own status for a parent its spec no longer names, written by the
 * controller for the Route's current generation: it read this very generation (Argo CD's
 * healthy_multiple_generations fixture has this shape).
 */
function currentOwnEntry(
  context: DiagnosisContext,
  controllerName: string,
  recent: Recent
): string | undefined {
  const { route } = context
  const { namespace, generation } = route.metadata
  if (namespace === undefined || generation === undefined) return undefined
  const named = new Set((context.parents ?? []).map((p) => parentRefKey(p.parentRef)))
  const entry = readEntries(route.status, namespace, generation).find(
    (e) =>
      e.controllerName === controllerName &&
      !named.has(parentRefKey(e.parentRef)) &&
      e.conditions.length > 0 &&
      e.conditions.every((c) => c.observedGeneration === generation) &&
      recent(e.conditions)
  )
  return (
    entry &&
    `parent ${formatParentRef(entry.parentRef)} of this Route, which its spec no longer names`
  )
}

/**
 * A Gateway of the controller's classes whose conditions describe its current generation and changed
 * no earlier than the stale status: without that time, a Gateway's status may be far older than the
 * stall, and proves nothing.
 */
function currentGateway(
  context: DiagnosisContext,
  controllerName: string,
  recent: Recent
): string | undefined {
  const { world } = context
  const classes = new Set(
    world.gatewayClasses
      .filter((c) => stringField(c.spec, 'controllerName') === controllerName)
      .map((c) => c.metadata.name)
  )
  const gateway = world.gateways.find((g) => {
    const { generation } = g.metadata
    const conditions = conditionsOf(g.status)
    return (
      generation !== undefined &&
      classes.has(stringField(g.spec, 'gatewayClassName') ?? '') &&
      conditions.length > 0 &&
      conditions.every((c) => c.observedGeneration === generation) &&
      recent(conditions)
    )
  })
  return gateway && `Gateway ${gateway.metadata.namespace ?? ''}/${gateway.metadata.name}`
}

/** Another Route whose status the controller wrote for that Route's current generation. */
function currentOtherRoute(
  context: DiagnosisContext,
  controllerName: string,
  recent: Recent
): string | undefined {
  const { route } = context
  for (const other of context.routes ?? []) {
    const { generation, namespace, name } = other.metadata
    // a Route is never evidence for itself, nor one whose namespace is unknown and could be it
    if (generation === undefined || other === route || namespace === undefined) continue
    if (
      other.kind === route.kind &&
      namespace === route.metadata.namespace &&
      name === route.metadata.name
    )
      continue
    const current = readEntries(other.status, namespace, generation).some(
      (entry) =>
        entry.controllerName === controllerName &&
        entry.conditions.length > 0 &&
        entry.conditions.every((c) => c.observedGeneration === generation) &&
        recent(entry.conditions)
    )
    if (current) return `${other.kind} ${namespace}/${name}`
  }
  return undefined
}

/** Conditions every Gateway API implementation must write on a Route parent: never optional. */
const SPEC_REQUIRED = new Set(['Accepted', 'ResolvedRefs'])

export function explainConditionGap(context: DiagnosisContext): Diagnosis {
  const { finding, route } = context
  const conditions = context.parent?.conditions ?? []
  const who = controllerLabel(finding.controllerName ?? context.parent?.controllerName)
  // an implementation's own condition that is False (Reconciled, a Route-level Programmed) is
  // usually why the required one is missing or undecided
  const negative = conditions.filter((c) => c.status === 'False' && c.type !== finding.condition)
  const diagnosis: Diagnosis = {
    evidence: [
      ...negative.map((c) => `${who} reports ${describeCondition(c)}.`),
      conditions.length === 0
        ? `${who} wrote an entry for this parent with no conditions.`
        : `${who} wrote: ${conditions.map(describeCondition).join('; ')}.`
    ]
  }
  const why = negative[0]
  if (finding.reason === 'ConditionMissing' && finding.condition) {
    diagnosis.title = `${who} wrote no ${finding.condition} condition${why ? `; it reports ${why.type}=False (${why.reason ?? 'no reason'})` : ''}`
    diagnosis.remediation = why
      ? `Fix what ${why.type}=False says${why.message ? ` ("${quoted(why.message)}")` : ''}; ${who} writes ${finding.condition} once it has processed the ${route.kind}.`
      : SPEC_REQUIRED.has(finding.condition)
        ? `Gateway API requires every implementation to write ${finding.condition} on each parent: ${who} has not finished processing this ${route.kind}, or does not support it. Read its logs for this ${route.kind} and check that it supports ${route.kind}.`
        : `${who} does not write ${finding.condition} on this ${route.kind}: check whether it supports this condition for ${route.kind}, or remove ${finding.condition} from the conditions input.`
  }
  if (finding.reason === 'ConditionUnknown' && finding.condition) {
    const reason = finding.conditionReason ? ` (${finding.conditionReason})` : ''
    diagnosis.title = `${finding.condition} is Unknown${reason}: ${who} has not decided yet`
    if (why)
      diagnosis.remediation = `Fix what ${why.type}=False says${why.message ? ` ("${quoted(why.message)}")` : ''}; ${who} decides ${finding.condition} once it has processed the ${route.kind}.`
  }
  return diagnosis
}

export function explainNoParentRefs(context: DiagnosisContext): Diagnosis {
  const { route, world } = context
  const local = world.gateways.filter((g) => g.metadata.namespace === route.metadata.namespace)
  const candidates = (local.length > 0 ? local : world.gateways).slice(0, 5)
  const names = candidates.map((g) => `${g.metadata.namespace ?? ''}/${g.metadata.name}`)
  const first = candidates[0]
  const diagnosis: Diagnosis = {
    evidence: [
      names.length > 0
        ? `Gateways that exist: ${listing(names)}.`
        : 'No Gateway exists in the source.'
    ]
  }
  if (first) {
    diagnosis.remediation = `Add spec.parentRefs naming the Gateway that should serve the Route, e.g. ${names[0] ?? ''}.`
  }
  // which Gateway should serve the Route is the author's choice: an object only where there is one
  if (first && world.gateways.length === 1) {
    const parentRefs = [
      { name: first.metadata.name, namespace: first.metadata.namespace ?? route.metadata.namespace }
    ]
    const spec = isRecord(route.spec) ? route.spec : {}
    diagnosis.fixes = [patchFix({ ...route, spec: { ...spec, parentRefs } })]
  }
  return diagnosis
}

/** NotSynced: what the live object lacks, and what last wrote it, are the evidence. */
export function explainNotSynced(context: DiagnosisContext): Diagnosis {
  const waiting = context.finding.waitingFor
  return { evidence: waiting === undefined ? [] : [`${capitalize(waiting)}.`] }
}

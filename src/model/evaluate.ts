// The verdict rules of design.md ("Verdict rules"): one Route, each spec parentRef, judged from the
// status entries that belong to it. Pure, and never throws on odd shapes (shape.ts reports those).
import { freshnessOf, readEntries } from './entries.ts'
import type { StatusEntry } from './entries.ts'
import { routeId } from './route-id.ts'
import { assignEntries, sameScope } from './matching.ts'
import { findGateway, isGatewayRef, ownerController } from './owner.ts'
import type { OwnerWorld } from './owner.ts'
import { formatParentRef, parentRefKey } from './parent-ref.ts'
import { routeParentRefs } from './route-spec.ts'
import type {
  Condition,
  Finding,
  ParentRef,
  ParentVerdict,
  RouteObject,
  RouteVerdict,
  Verdict,
  VerdictOptions
} from './types.ts'
import { arrayField, integerField, isRecord, stringField } from './unknown.ts'

export const DEFAULT_CONDITIONS: string[] = ['Accepted', 'ResolvedRefs']

/** Synthetic reasons that mean "not known yet": warnings while waiting, errors at the deadline. */
const WAITING_REASONS = new Set(['NoStatus', 'StaleStatus', 'ConditionMissing', 'ConditionUnknown'])

const RANK: Record<Verdict, number> = { ready: 0, pending: 1, failed: 2 }

export function combineVerdicts(verdicts: Verdict[]): Verdict {
  return verdicts.reduce<Verdict>((worst, v) => (RANK[v] > RANK[worst] ? v : worst), 'ready')
}

interface Context {
  id: string
  generation: number | undefined
  options: VerdictOptions
  world: OwnerWorld
  notes: Set<string>
}

interface EntryVerdict {
  entry: StatusEntry
  verdict: Verdict
  findings: Finding[]
}

/** Controllers merge several errors of one condition into one comma-joined reason (Envoy Gateway). */
function splitReasons(reason: string | undefined): string[] {
  const parts = (reason ?? '').split(',').flatMap((part) => part.trim() || [])
  return parts.length > 0 ? parts : ['NoReason']
}

function conditionFindings(
  condition: Condition,
  severity: Finding['severity'],
  controllerName: string | undefined
): Finding[] {
  return splitReasons(condition.reason).map((reason) => ({
    condition: condition.type,
    reason,
    severity,
    ...(condition.message !== undefined && { message: condition.message }),
    ...(controllerName !== undefined && { controllerName }),
    ...(condition.lastTransitionTime !== undefined && {
      lastTransitionTime: condition.lastTransitionTime
    })
  }))
}

function synthetic(
  reason: string,
  condition: Condition | string,
  entry: StatusEntry,
  generation?: number
): Finding {
  const c = typeof condition === 'string' ? undefined : condition
  return {
    condition: typeof condition === 'string' ? condition : condition.type,
    reason,
    severity: WAITING_REASONS.has(reason) ? 'warning' : 'error',
    ...(c?.reason !== undefined && reason === 'ConditionUnknown' && { conditionReason: c.reason }),
    ...(c?.message !== undefined && { message: c.message }),
    ...(entry.controllerName !== undefined && { controllerName: entry.controllerName }),
    ...(generation !== undefined && { generation }),
    ...(c?.observedGeneration !== undefined && { observedGeneration: c.observedGeneration }),
    ...(c?.lastTransitionTime !== undefined && { lastTransitionTime: c.lastTransitionTime })
  }
}

function noteFreshness(entry: StatusEntry, ctx: Context): void {
  const controller = entry.controllerName ?? 'an unnamed controller'
  if (ctx.generation === undefined) {
    ctx.notes.add(`${ctx.id} has no metadata.generation: freshness of its status not proven`)
    return
  }
  for (const condition of entry.conditions) {
    const freshness = freshnessOf(condition, ctx.generation)
    if (freshness === 'unproven') {
      ctx.notes.add(
        `observedGeneration absent on conditions written by ${controller}: freshness not proven`
      )
    } else if (freshness === 'ahead') {
      ctx.notes.add(
        `${ctx.id}: ${condition.type} observedGeneration ${condition.observedGeneration} is newer ` +
          `than metadata.generation ${ctx.generation} (a bug in ${controller}); accepted as fresh`
      )
    }
  }
}

function judgeEntry(entry: StatusEntry, ctx: Context): EntryVerdict {
  noteFreshness(entry, ctx)
  const { options, generation } = ctx
  const byType = new Map(entry.conditions.map((c) => [c.type, c]))
  const accepted = byType.get('Accepted')
  const partial = byType.get('PartiallyInvalid')
  const partiallyInvalid = partial?.status === 'True' && partial.fresh === true

  // Fall Back: the last good spec keeps serving and Accepted stays old on purpose; waiting cannot end it.
  if (partiallyInvalid && accepted?.status === 'True' && accepted.fresh === false) {
    const finding: Finding = {
      ...synthetic('FallBack', partial, entry, generation),
      observedGeneration: accepted.observedGeneration
    }
    return { entry, verdict: 'failed', findings: [finding] }
  }

  const findings: Finding[] = []
  let failed = false
  let pending = false
  for (const type of options.conditions) {
    const condition = byType.get(type)
    if (!condition) {
      pending = true
      findings.push(synthetic('ConditionMissing', type, entry))
    } else if (condition.fresh === false) {
      pending = true
      findings.push(synthetic('StaleStatus', condition, entry, generation))
    } else if (condition.status === 'False') {
      failed = true
      findings.push(...conditionFindings(condition, 'error', entry.controllerName))
    } else if (condition.status === 'Unknown') {
      pending = true
      findings.push(synthetic('ConditionUnknown', condition, entry))
    }
  }
  if (partiallyInvalid && !options.conditions.includes('PartiallyInvalid')) {
    failed ||= options.strict
    const severity = options.strict ? 'error' : 'warning'
    findings.push(...conditionFindings(partial, severity, entry.controllerName))
  }
  // Envoy Gateway keeps ResolvedRefs True for a Service without endpoints (as the conformance tests
  // require) and says so in BackendsAvailable: attached and resolved, yet requests would fail.
  const backends = byType.get('BackendsAvailable')
  if (backends?.status === 'False' && backends.fresh !== false) {
    if (!options.conditions.includes('BackendsAvailable'))
      findings.push(...conditionFindings(backends, 'warning', entry.controllerName))
  }
  return { entry, verdict: failed ? 'failed' : pending ? 'pending' : 'ready', findings }
}

/**
 * Exact entries (same sectionName/port as the ref) decide, worst first when several controllers
 * report. Otherwise the listener-scoped ones: attachment succeeds when any one listener accepts.
 */
function decide(ref: ParentRef, judged: EntryVerdict[]): EntryVerdict {
  const exact = judged.filter((j) => sameScope(j.entry.parentRef, ref))
  if (exact.length > 0) {
    const verdict = combineVerdicts(exact.map((j) => j.verdict))
    const decider = exact.find((j) => j.verdict === verdict) ?? exact[0]!
    return { ...decider, verdict, findings: exact.flatMap((j) => j.findings) }
  }
  const ready = judged.find((j) => j.verdict === 'ready')
  if (ready) return ready
  const verdict = judged.every((j) => j.verdict === 'failed') ? 'failed' : 'pending'
  return { entry: judged[0]!.entry, verdict, findings: judged.flatMap((j) => j.findings) }
}

function atDeadline(findings: Finding[]): Finding[] {
  return findings.map((f) => (WAITING_REASONS.has(f.reason) ? { ...f, severity: 'error' } : f))
}

/** Rule 3: the owner's entries when the owner is known, else those that carry Accepted. */
function judgedBy(ref: ParentRef, world: OwnerWorld): (e: StatusEntry) => boolean {
  const owner = ownerController(ref, world)
  return (e) =>
    owner !== undefined
      ? e.controllerName === owner
      : e.conditions.some((c) => c.type === 'Accepted')
}

function judgeParent(ref: ParentRef, entries: StatusEntry[], ctx: Context): ParentVerdict {
  const isJudged = judgedBy(ref, ctx.world)
  const judged = entries.filter(isJudged).map((e) => judgeEntry(e, ctx))
  const otherControllers = entries
    .filter((e) => !isJudged(e))
    .map((e) => ({ controllerName: e.controllerName ?? '', conditions: e.conditions }))

  let verdict: Verdict = 'pending'
  let findings: Finding[] = [{ reason: 'NoStatus', severity: 'warning' }]
  let controllerName: string | null = null
  let conditions: Condition[] = []
  if (judged.length > 0) {
    const decided = decide(ref, judged)
    verdict = decided.verdict
    findings = decided.findings
    controllerName = decided.entry.controllerName ?? null
    conditions = decided.entry.conditions
  }
  if (ctx.options.final && verdict === 'pending') {
    verdict = 'failed'
    findings = atDeadline(findings)
  }
  return { parentRef: ref, verdict, controllerName, conditions, findings, otherControllers }
}

/**
 * Whether a Gateway claims this Route by default (GEP-3793): the Route opts in with
 * spec.useDefaultGateways and the Gateway has spec.defaultScope of that scope. A Gateway that cannot
 * be read cannot be shown to claim it.
 */
function claimsByDefault(
  ref: ParentRef,
  routeScope: string | undefined,
  world: OwnerWorld
): boolean {
  if (routeScope === undefined || routeScope === 'None' || !isGatewayRef(ref)) return false
  const gateway = findGateway(world, ref.namespace, ref.name)
  return gateway !== undefined && stringField(gateway.spec, 'defaultScope') === routeScope
}

/**
 * Entries of default Gateways, grouped into one parent per distinct parentRef; every other entry of a
 * Route without parentRefs is a leftover (an orphan).
 */
function defaultGatewayParents(
  route: RouteObject,
  entries: StatusEntry[],
  ctx: Context
): { parents: ParentVerdict[]; orphans: StatusEntry[] } {
  const scope = stringField(isRecord(route) ? route.spec : undefined, 'useDefaultGateways')
  const groups = new Map<string, StatusEntry[]>()
  const orphans: StatusEntry[] = []
  for (const entry of entries) {
    if (!claimsByDefault(entry.parentRef, scope, ctx.world)) {
      orphans.push(entry)
      continue
    }
    const key = parentRefKey(entry.parentRef)
    groups.set(key, [...(groups.get(key) ?? []), entry])
  }
  const parents = [...groups.values()].map((group) => judgeParent(group[0]!.parentRef, group, ctx))
  return { parents, orphans }
}

/** Rule 10: a Route on its way out (metadata.deletionTimestamp) is never ready. */
function terminating(metadata: unknown): Finding | undefined {
  const deletionTimestamp = stringField(metadata, 'deletionTimestamp')
  if (deletionTimestamp === undefined) return undefined
  const finalizers = (arrayField(metadata, 'finalizers') ?? []).filter(
    (f): f is string => typeof f === 'string'
  )
  return { reason: 'Terminating', severity: 'error', deletionTimestamp, finalizers }
}

export function evaluateRoute(
  route: RouteObject,
  world: OwnerWorld,
  options: VerdictOptions
): RouteVerdict {
  const metadata: unknown = isRecord(route) ? route.metadata : undefined
  const namespace = stringField(metadata, 'namespace') ?? ''
  const ctx: Context = {
    id: routeId({
      kind: String(isRecord(route) ? route.kind : ''),
      namespace,
      name: stringField(metadata, 'name') ?? ''
    }),
    generation: integerField(metadata, 'generation'),
    options,
    world,
    notes: new Set()
  }
  const refs = routeParentRefs(route)
  const entries = readEntries(isRecord(route) ? route.status : undefined, namespace, ctx.generation)

  let parents: ParentVerdict[]
  let orphans: StatusEntry[] = []
  const findings: Finding[] = []
  const leaving = terminating(metadata)
  if (leaving) findings.push(leaving)
  if (refs.length > 0) {
    const assignment = assignEntries(refs, entries, (ref, e) => judgedBy(ref, world)(e))
    parents = refs.map((ref, i) => judgeParent(ref, assignment.owned[i] ?? [], ctx))
    orphans = assignment.orphans
    for (const i of new Set(assignment.portless)) {
      const ref = refs[i]!
      const portless = assignment.owned[i]?.find((e) => e.parentRef.port === undefined)
      const writer = portless?.controllerName ?? 'an unnamed controller'
      ctx.notes.add(
        `${ctx.id}: ${writer} wrote its entry for parentRef ${formatParentRef(ref, namespace)} ` +
          `without the port; it is the only entry for that parent and no other parentRef names it, ` +
          `so it was judged as this parentRef's`
      )
    }
  } else {
    const defaults = defaultGatewayParents(route, entries, ctx)
    parents = defaults.parents
    orphans = defaults.orphans
    if (parents.length === 0) findings.push({ reason: 'NoParentRefs', severity: 'error' })
  }

  const verdicts = parents.map((p) => p.verdict)
  if (findings.length > 0) verdicts.push('failed')
  return {
    route,
    verdict: combineVerdicts(verdicts),
    parents,
    findings,
    orphans: orphans.map((o) => o.raw),
    notes: [...ctx.notes]
  }
}

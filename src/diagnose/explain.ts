// Turns the model's verdict on one Route into the report's RouteResult: every Finding becomes a
// Problem whose remediation is built from its reason and sharpened with evidence from the World.
import {
  explainBackendNotFound,
  explainInvalidKind,
  explainRefNotPermitted,
  explainUnsupportedProtocol
} from './backends.ts'
import { parentChain } from './chain.ts'
import { explainConflict } from './conflicts.ts'
import { CONFLICT_REASONS } from '../rules/conflicts.ts'
import type { Diagnosis, DiagnosisContext, Gatherer } from './context.ts'
import { contradiction } from './contradictions.ts'
import type { Contradiction } from './contradictions.ts'
import { controllerDocs, controllerReason } from './controller-docs.ts'
import { findController } from '../rules/controllers.ts'
import { controllerLabel } from '../wording/controllers.ts'
import { explainNoMatchingListenerHostname } from './listener-hostnames.ts'
import { explainNoMatchingParent } from './no-matching-parent.ts'
import { explainNotAllowedByListeners } from './listeners.ts'
import { explainNoStatus, parentHealth } from './parents.ts'
import { isStandardReason, isSynthetic, reasonEntry } from './reasons.ts'
import { explainFallBack, explainIncompatibleFilters, explainUnsupportedValue } from './rules.ts'
import {
  explainConditionGap,
  explainNoParentRefs,
  explainNotSynced,
  explainStaleStatus
} from './synthetic.ts'
import { explainTerminating } from './terminating.ts'
import { explainUnpredictable } from './unpredictable.ts'
import { listing, unique, uniqueSentences } from '../wording/phrasing.ts'
import type {
  Finding,
  ParentResult,
  ParentVerdict,
  Problem,
  RouteObject,
  RouteResult,
  RouteVerdict,
  SourcePosition,
  World
} from '../model/types.ts'

export interface ExplainOptions {
  source?: SourcePosition
  /** the clock for "stale for how long"; without it durations are left out */
  now?: Date
  /** `dump`: `now` is the newest timestamp a dump holds, not the time of reading it */
  clock?: 'live' | 'dump'
  /** other Routes the run holds (the dump's, the gate's), for conflicts and controller liveness */
  routes?: RouteObject[]
}

const GATHERERS: Record<string, Gatherer> = {
  NotAllowedByListeners: explainNotAllowedByListeners,
  NoMatchingListenerHostname: explainNoMatchingListenerHostname,
  NoMatchingParent: explainNoMatchingParent,
  RefNotPermitted: explainRefNotPermitted,
  BackendNotFound: explainBackendNotFound,
  InvalidKind: explainInvalidKind,
  UnsupportedProtocol: explainUnsupportedProtocol,
  UnsupportedValue: explainUnsupportedValue,
  IncompatibleFilters: explainIncompatibleFilters,
  NoStatus: explainNoStatus,
  StaleStatus: explainStaleStatus,
  ConditionMissing: explainConditionGap,
  ConditionUnknown: explainConditionGap,
  Pending: explainConditionGap,
  NoParentRefs: explainNoParentRefs,
  Terminating: explainTerminating,
  NotSynced: explainNotSynced,
  Unpredictable: explainUnpredictable,
  FallBack: explainFallBack,
  ...Object.fromEntries([...CONFLICT_REASONS].map((reason) => [reason, explainConflict]))
}

export function explainRoute(
  verdict: RouteVerdict,
  world: World,
  options: ExplainOptions = {}
): RouteResult {
  const { route } = verdict
  const base = {
    route,
    world,
    parents: verdict.parents,
    ...(options.routes ? { routes: options.routes } : {}),
    ...(options.now ? { now: options.now, clock: options.clock ?? 'live' } : {})
  }
  const result: RouteResult = {
    kind: route.kind,
    apiVersion: route.apiVersion,
    namespace: route.metadata.namespace,
    name: route.metadata.name,
    ...(route.metadata.generation === undefined ? {} : { generation: route.metadata.generation }),
    verdict: verdict.verdict,
    ...(options.source ? { source: options.source } : {}),
    parents: verdict.parents.map((parent) => explainParent(parent, base))
  }
  const problems = verdict.findings.map((finding) => toProblem({ ...base, finding }))
  if (problems.length > 0) result.problems = problems
  if (verdict.orphans.length > 0) result.orphans = verdict.orphans
  return result
}

function explainParent(
  parent: ParentVerdict,
  base: Omit<DiagnosisContext, 'finding'>
): ParentResult {
  const problems = sayOnce(
    parent.findings.map((finding) => toProblem({ ...base, parent, finding }))
  )
  const health = parentHealth(parent.parentRef, base.world)
  const first = problems[0]
  if (first) {
    const evidence = unique([...(first.evidence ?? []), ...health])
    if (evidence.length > 0) first.evidence = evidence
  } else if (health.length > 0) {
    const entry = reasonEntry('ParentUnhealthy')
    problems.push({
      reason: 'ParentUnhealthy',
      severity: 'warning',
      title: `${parent.parentRef.kind} ${parent.parentRef.namespace}/${parent.parentRef.name} is not healthy although the Route is accepted`,
      remediation: entry?.remediation ?? '',
      evidence: health
    })
  }
  return {
    parentRef: parent.parentRef,
    verdict: parent.verdict,
    controllerName: parent.controllerName,
    conditions: parent.conditions,
    problems,
    // a parent held for the merged files has a chain of what ran before the merge: not shown
    ...(parent.verdict === 'ready' || parent.findings[0]?.reason === 'NotSynced'
      ? {}
      : { chain: parentChain(base.route, parent, base.world) })
  }
}

/**
 * One problem per remediation on a parent: two findings with the same fix (two stale conditions) are
 * one problem whose title names both conditions and whose evidence holds both.
 */
function sayOnce(problems: Problem[]): Problem[] {
  const kept = new Map<Problem, string[]>()
  for (const problem of problems) {
    const same = [...kept.keys()].find((k) => k.remediation === problem.remediation)
    if (!same) {
      kept.set(problem, problem.condition ? [problem.condition] : [])
      continue
    }
    if (problem.condition) kept.get(same)?.push(problem.condition)
    const evidence = unique([...(same.evidence ?? []), ...(problem.evidence ?? [])])
    if (evidence.length > 0) same.evidence = evidence
  }
  for (const [problem, conditions] of kept) {
    const named = unique(conditions)
    if (named.length > 1) problem.title = `${problem.title} (${listing(named)})`
  }
  return [...kept.keys()]
}

function gather(gatherer: Gatherer | undefined, context: DiagnosisContext): Diagnosis {
  if (!gatherer) return { evidence: [] }
  try {
    return gatherer(context)
  } catch (error) {
    // Objects from dumps are hand-written; a shape no reader foresaw must not cost the whole report.
    return {
      evidence: [
        `Evidence could not be gathered: ${error instanceof Error ? error.message : String(error)}.`
      ]
    }
  }
}

function toProblem(context: DiagnosisContext): Problem {
  const { finding } = context
  const controllerName = finding.controllerName ?? context.parent?.controllerName ?? undefined
  const controller = findController(controllerName)
  const full: DiagnosisContext = { ...context, ...(controller ? { controller } : {}) }
  const custom = controllerReason(controller, finding.condition, finding.reason)
  const entry = reasonEntry(finding.reason)
  const gathered = gather(GATHERERS[custom?.like ?? finding.reason], full)
  const disagreement = contradiction(full)
  const diagnosis = disagreement ? disagree(gathered, disagreement, full, controllerName) : gathered
  const known = custom !== undefined || entry !== undefined
  const evidence = unique(diagnosis.evidence)
  if (!known) {
    evidence.unshift(
      `${controllerLabel(controllerName)} reported reason ${finding.reason}${finding.condition ? ` on ${finding.condition}` : ''}, which is not a Gateway API reason and not in route-gate's catalog for this controller.`
    )
  }
  const remediation =
    uniqueSentences(
      [diagnosis.remediation, custom?.fix].filter((r) => r !== undefined).join(' ')
    ) ||
    entry?.remediation ||
    genericFix(finding, controllerName, controllerDocs(controller)?.docs, context)
  const problem: Problem = {
    ...(finding.condition ? { condition: finding.condition } : {}),
    reason: finding.reason,
    ...(isSynthetic(finding.reason)
      ? {}
      : { standard: isStandardReason(finding.condition, finding.reason) }),
    severity: finding.severity,
    title:
      diagnosis.title ??
      (custom ? `${finding.reason}: ${custom.meaning}` : entry?.title) ??
      unknownTitle(finding, controllerName),
    ...(finding.message === undefined ? {} : { message: finding.message }),
    remediation
  }
  if (evidence.length > 0) problem.evidence = evidence
  if (diagnosis.fixes) problem.fixes = diagnosis.fixes
  return problem
}

/**
 * The controller's reason against route-gate's reads: say that they disagree and what that means,
 * never the fix for a cause that the reads show is gone.
 */
function disagree(
  gathered: Diagnosis,
  found: Contradiction,
  context: DiagnosisContext,
  controllerName: string | undefined
): Diagnosis {
  const { finding, route } = context
  const who = controllerLabel(controllerName)
  return {
    title: `${finding.reason} disagrees with what route-gate read: ${found.facts[0]?.replace(/\.$/, '') ?? ''}`,
    remediation:
      `The controller's reason and the cluster disagree. ${who} most likely wrote this status before the cluster changed and has not caught up yet (route-gate's fail-fast does not stop at such a failure). ` +
      `If it stays this way, ${who} cannot see what route-gate sees: check that it watches namespace ${route.metadata.namespace} and the backends' namespaces, that it may read ${found.reads}, and read its logs for this ${route.kind}.`,
    evidence: [...found.facts, ...gathered.evidence]
  }
}

function unknownTitle(finding: Finding, controllerName: string | undefined): string {
  return `${finding.condition ?? 'Status'} reports ${finding.reason} from ${controllerName ?? 'an unknown controller'}`
}

function genericFix(
  finding: Finding,
  controllerName: string | undefined,
  docs: string | undefined,
  context: DiagnosisContext
): string {
  const { route } = context
  const describe = `kubectl describe ${route.kind.toLowerCase()} -n ${route.metadata.namespace} ${route.metadata.name}`
  return [
    `${controllerLabel(controllerName)} uses its own reason ${finding.reason}: read its message${docs ? ` and its documentation (${docs})` : ''}.`,
    `The Route's events (${describe}) and the controller's logs say more.`
  ].join(' ')
}

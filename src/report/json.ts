// The report as JSON: whole for files and `--format json`, and cut to fit for the Action's `report`
// output (the runner limits outputs to 1 MB per job, counted in UTF-16 units).

import type {
  AnyParentResult,
  ProbeAnswer,
  Problem,
  AnyReport,
  AnyRouteResult
} from '../model/types.ts'
import { truncate } from './escape.ts'

// JSON can reach a terminal or a workflow log (`--format json`, a step that echoes the `report`
// output), where the runner reads "##[" anywhere as a command. JSON.stringify leaves DEL, C1 controls
// and bidi overrides raw. All of these occur only inside strings, so writing a character as its
// \u escape keeps every value and makes the text inert.
function stringify(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(
    /##\[|[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g,
    (c) => (c === '##[' ? '#\\u0023[' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
  )
}

export function renderJson(report: AnyReport): string {
  return stringify(report, 2)
}

/**
 * The report as every place but the report file shows it: without the answer bodies and full
 * header lists traffic-show-body keeps, which a public job log or summary must never carry.
 */
export function publicReport<R extends AnyReport>(report: R): R {
  const bare = (answer: ProbeAnswer | undefined): ProbeAnswer | undefined =>
    answer && omit(answer, ['excerpt', 'allHeaders'])
  const hasAnswers = ({ probe }: AnyParentResult): boolean =>
    probe !== undefined && (probe.last !== undefined || probe.noRoute !== undefined)
  const publicParent = (parent: AnyParentResult): AnyParentResult => {
    const probe = parent.probe
    if (!probe || !hasAnswers(parent)) return parent
    const last = bare(probe.last)
    const noRoute = bare(probe.noRoute)
    return { ...parent, probe: { ...probe, ...(last && { last }), ...(noRoute && { noRoute }) } }
  }
  // a Route without answers is shown as it is: no copy of each of thousands of Routes
  return {
    ...report,
    routes: report.routes.map((route) =>
      route.parents.some(hasAnswers)
        ? { ...route, parents: route.parents.map(publicParent) }
        : route
    )
  }
}

/** A cut report says so; `omittedRoutes` counts the Routes left out (`counts` still covers all). */
type OutputReport = AnyReport & { truncated?: true; omittedRoutes?: number }

const SHORT_TEXT = 200

function omit<T extends object, K extends keyof T>(value: T, keys: readonly K[]): Omit<T, K> {
  const copy = { ...value }
  for (const key of keys) delete copy[key]
  return copy
}

// Shrinking steps for one Route, mildest first. Each keeps every field the schema requires.
function withoutDetail(route: AnyRouteResult): AnyRouteResult {
  const slim = (problem: Problem): Problem => omit(problem, ['evidence', 'fixes', 'message'])
  return {
    ...omit(route, ['orphans']),
    ...(route.problems === undefined ? {} : { problems: route.problems.map(slim) }),
    parents: route.parents.map((parent): AnyParentResult => ({
      ...omit(parent, ['conditions']),
      problems: parent.problems.map(slim)
    }))
  }
}

function bare(route: AnyRouteResult): AnyRouteResult {
  const short = (problem: Problem): Problem => ({
    ...problem,
    title: truncate(problem.title, SHORT_TEXT),
    remediation: truncate(problem.remediation, SHORT_TEXT)
  })
  const slim = withoutDetail(route)
  return {
    ...slim,
    ...(slim.problems === undefined ? {} : { problems: slim.problems.map(short) }),
    parents: slim.parents.map((parent) => ({ ...parent, problems: parent.problems.map(short) }))
  }
}

const isReady = (route: AnyRouteResult): boolean => route.verdict === 'ready'
const keep = (route: AnyRouteResult): AnyRouteResult => route
const drop = (): undefined => undefined

// Each level says what becomes of a ready Route and of a Route that is not ready.
const LEVELS: [
  (r: AnyRouteResult) => AnyRouteResult | undefined,
  (r: AnyRouteResult) => AnyRouteResult
][] = [
  [withoutDetail, keep],
  [drop, keep],
  [drop, withoutDetail],
  [drop, bare]
]

// Ready Routes go first, then pending, then failed: failures are what the reader of a cut report needs.
const DROP_ORDER = { ready: 0, pending: 1, unknown: 1, failed: 2 }

function serialize(report: AnyReport, routes: (AnyRouteResult | undefined)[]): string {
  const kept = routes.filter((route) => route !== undefined)
  const out: OutputReport = { ...report, routes: kept }
  if (kept.length < report.routes.length) out.omittedRoutes = report.routes.length - kept.length
  if (routes !== report.routes) out.truncated = true
  return stringify(out)
}

/**
 * Compact JSON of the report, at most `maxChars` long when at all possible: first ready Routes lose
 * their details, then ready Routes go, then the others lose theirs, then Routes go pending first.
 * The result is always valid JSON that matches the schema, with `"truncated": true` when cut.
 */
export function reportForOutput(report: AnyReport, maxChars: number): string {
  const whole = stringify(report)
  if (whole.length <= maxChars) return whole

  let routes: (AnyRouteResult | undefined)[] = report.routes
  for (const [ready, notReady] of LEVELS) {
    routes = report.routes.map((route) => (isReady(route) ? ready(route) : notReady(route)))
    const json = serialize(report, routes)
    if (json.length <= maxChars) return json
  }

  // Drop whole Routes, least needed first. Each Route's share of the length is known, so one pass
  // estimates how many must go; the check after it corrects for the few characters the estimate
  // misses ("omittedRoutes", a comma).
  const order = routes
    .map((route, index) => ({ route, index }))
    .filter((entry): entry is { route: AnyRouteResult; index: number } => entry.route !== undefined)
    .sort((a, b) => DROP_ORDER[a.route.verdict] - DROP_ORDER[b.route.verdict] || b.index - a.index)
  let length = serialize(report, routes).length
  const dropped = new Set<number>()
  const without = (): (AnyRouteResult | undefined)[] =>
    routes.map((route, index) => (dropped.has(index) ? undefined : route))
  for (const { route, index } of order) {
    if (length <= maxChars) {
      const json = serialize(report, without())
      if (json.length <= maxChars) return json
    }
    dropped.add(index)
    length -= JSON.stringify(route).length + 1
  }
  const remaining = without()
  const withoutRoutes = serialize(report, remaining)
  if (withoutRoutes.length <= maxChars) return withoutRoutes

  // Still too long: the notes and transitions go, and at last everything but the verdict.
  const head = omit(report, ['notes', 'transitions'])
  const withoutExtras = serialize(head, remaining)
  if (withoutExtras.length <= maxChars) return withoutExtras
  const minimal = omit(head, ['tool', 'startedAt', 'finishedAt', 'elapsedMs', 'timedOut'])
  return serialize(minimal, report.routes.map(drop))
}

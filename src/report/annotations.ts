// Annotations: the line a reviewer sees on the run page and in the diff, next to the Route's manifest.
// The runner shows at most 10 errors and 10 warnings per step, so the last slot of each says how many
// more there are and points at the job summary.

import type { AnyReport, AnyRouteResult, Mode, Problem } from '../model/types.ts'
import { safeLogLine, truncate } from './escape.ts'
import { formatParentRef, messageLabel, problemReason, routeId } from './labels.ts'

export interface Annotation {
  level: 'error' | 'warning'
  title: string
  message: string
  file?: string
  startLine?: number
}

const DEFAULT_MAX = 10
const TITLE_MAX = 200
const MESSAGE_MAX = 4000
const NAMES_IN_OVERFLOW = 20

// Annotations become workflow commands: one line for the title, and no line of either that the
// runner could take for a command of its own.
function oneLine(text: string): string {
  return truncate(safeLogLine(text).replace(/\n/g, ' '), TITLE_MAX)
}

function problemLines(where: string, problem: Problem, mode: Mode): string[] {
  const lines = [`${where}: ${problem.title} (${problemReason(problem)})`]
  if (problem.message !== undefined && problem.message.trim() !== '') {
    lines.push(`  ${messageLabel(mode, problem)}: ${problem.message}`)
  }
  lines.push(`  what to do: ${problem.remediation}`)
  return lines
}

function routeMessage(route: AnyRouteResult, mode: Mode): string {
  const lines = [
    ...(route.problems ?? []).flatMap((problem) => problemLines('Route', problem, mode)),
    ...route.parents.flatMap((parent) => [
      ...(parent.why ?? []).map(
        (why) => `parent ${formatParentRef(parent.parentRef)} (unknown): cannot tell: ${why}`
      ),
      ...parent.problems.flatMap((problem) =>
        problemLines(
          `parent ${formatParentRef(parent.parentRef)} (${parent.verdict})`,
          problem,
          mode
        )
      )
    ])
  ]
  return truncate(safeLogLine(lines.join('\n')), MESSAGE_MAX)
}

const TITLE_SUFFIX = {
  failed: 'is not ready: failed',
  pending: 'is not ready yet: pending',
  ready: 'is ready, with warnings',
  unknown: 'cannot be predicted: unknown'
}

function routeAnnotation(
  route: AnyRouteResult,
  level: Annotation['level'],
  mode: Mode
): Annotation {
  const suffix =
    mode === 'predict' && route.verdict === 'failed'
      ? 'is predicted to fail'
      : TITLE_SUFFIX[route.verdict]
  const annotation: Annotation = {
    level,
    title: oneLine(`${routeId(route)} ${suffix}`),
    message: routeMessage(route, mode)
  }
  if (route.source !== undefined) {
    annotation.file = safeLogLine(route.source.file)
    annotation.startLine = route.source.line
  }
  return annotation
}

function capped(
  routes: AnyRouteResult[],
  level: Annotation['level'],
  what: string,
  max: number,
  mode: Mode
): Annotation[] {
  if (routes.length <= max) return routes.map((route) => routeAnnotation(route, level, mode))
  const kept = routes.slice(0, Math.max(0, max - 1))
  const rest = routes.slice(kept.length)
  const names = rest.slice(0, NAMES_IN_OVERFLOW).map(routeId)
  const andMore = rest.length > names.length ? `, … (${rest.length - names.length} more)` : ''
  const overflow: Annotation = {
    level,
    title: oneLine(`${rest.length} more ${what}`),
    message: truncate(
      safeLogLine(
        `and ${rest.length} more ${what}: see the job summary.\n${names.join(', ')}${andMore}`
      ),
      MESSAGE_MAX
    )
  }
  return [
    ...kept.map((route) => routeAnnotation(route, level, mode)),
    ...(max > 0 ? [overflow] : [])
  ]
}

export function buildAnnotations(report: AnyReport, options: { max?: number } = {}): Annotation[] {
  const max = options.max ?? DEFAULT_MAX
  const failed = report.routes.filter((route) => route.verdict === 'failed')
  const pending = report.routes.filter(
    (route) => route.verdict === 'pending' || route.verdict === 'unknown'
  )
  const warned = report.routes.filter(
    (route) =>
      route.verdict === 'ready' &&
      [...(route.problems ?? []), ...route.parents.flatMap((parent) => parent.problems)].length > 0
  )
  return [
    ...capped(failed, 'error', 'failed Routes', max, report.mode),
    ...capped(
      [...pending, ...warned],
      'warning',
      report.mode === 'predict'
        ? 'Routes unknown or with warnings'
        : 'Routes pending or with warnings',
      max,
      report.mode
    )
  ]
}

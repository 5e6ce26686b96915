import { combineVerdicts } from './evaluate.ts'
import type { Mode, Report, RouteResult, Transition, Verdict } from './types.ts'

export { routeId } from './route-id.ts'
import { compareText } from './route-id.ts'

const ORDER: Record<Verdict, number> = { failed: 0, pending: 1, ready: 2 }

function byAttention(a: RouteResult, b: RouteResult): number {
  return (
    ORDER[a.verdict] - ORDER[b.verdict] ||
    compareText(a.kind, b.kind) ||
    compareText(a.namespace, b.namespace) ||
    compareText(a.name, b.name)
  )
}

// Code-point order, so the report does not depend on the locale of the machine that wrote it.
export function buildReport(input: {
  mode: Mode
  routes: RouteResult[]
  toolVersion: string
  startedAt?: Date
  finishedAt?: Date
  timedOut?: boolean
  transitions?: Transition[]
  notes?: string[]
}): Report {
  const { routes, startedAt, finishedAt } = input
  const count = (verdict: Verdict): number => routes.filter((r) => r.verdict === verdict).length
  const notes = [...new Set(input.notes ?? [])]
  return {
    schemaVersion: 1,
    tool: { name: 'route-gate', version: input.toolVersion },
    mode: input.mode,
    verdict: combineVerdicts(routes.map((r) => r.verdict)),
    counts: {
      routes: routes.length,
      ready: count('ready'),
      failed: count('failed'),
      pending: count('pending')
    },
    ...(startedAt && { startedAt: startedAt.toISOString() }),
    ...(finishedAt && { finishedAt: finishedAt.toISOString() }),
    ...(startedAt &&
      finishedAt && { elapsedMs: Math.max(0, finishedAt.getTime() - startedAt.getTime()) }),
    ...(input.timedOut !== undefined && { timedOut: input.timedOut }),
    routes: [...routes].sort(byAttention),
    ...(input.transitions && { transitions: input.transitions }),
    ...(notes.length > 0 && { notes })
  }
}

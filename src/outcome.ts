// What a finished run means for the process: its exit code and a one-line reason.
import type { Report } from './model/types.ts'
import { routeId } from './model/report.ts'

export function exitCodeFor(report: Report): 0 | 1 {
  return report.verdict === 'ready' ? 0 : 1
}

/** "HTTPRoute shop/web, GRPCRoute pay/api": the Routes that keep the gate closed. */
export function notReadyRoutes(report: Report): string[] {
  return report.routes.filter((r) => r.verdict !== 'ready').map(routeId)
}

export function failureMessage(report: Report): string {
  const names = notReadyRoutes(report)
  const shown = names.slice(0, 5).join(', ')
  const more = names.length > 5 ? ` and ${names.length - 5} more` : ''
  const when = report.timedOut ? ' at the deadline' : ''
  return `${names.length} of ${report.counts.routes} Routes not ready${when}: ${shown}${more}`
}

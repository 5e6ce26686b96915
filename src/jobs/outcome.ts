// What a finished run means for the process: its exit code and a one-line reason.
import type { Settings } from '../inputs/settings.ts'
import type { Report, ReportVerdict } from '../model/types.ts'
import { routeId } from '../model/report.ts'

/** The gate passes only ready; predict fails on a definite failure, and on an unknown under strict. */
export function exitCodeFor(
  report: Report<ReportVerdict>,
  settings: Pick<Settings, 'strict'>
): 0 | 1 {
  if (report.mode !== 'predict') return report.verdict === 'ready' ? 0 : 1
  return report.verdict === 'failed' || (report.verdict === 'unknown' && settings.strict) ? 1 : 0
}

/** "HTTPRoute shop/web, GRPCRoute pay/api": the Routes that keep the gate closed. */
export function notReadyRoutes(report: Report<ReportVerdict>): string[] {
  // a prediction keeps the merge closed only where it is sure: unknown Routes are listed apart
  const closing = (verdict: ReportVerdict): boolean =>
    report.mode === 'predict' ? verdict === 'failed' : verdict !== 'ready'
  return report.routes.filter((r) => closing(r.verdict)).map(routeId)
}

export function failureMessage(report: Report<ReportVerdict>): string {
  if (report.mode === 'predict') {
    const failed = notReadyRoutes(report)
    const unknown = report.counts.unknown ?? 0
    return failed.length > 0
      ? `${failed.length} of ${report.counts.routes} Routes predicted to fail: ${failed.slice(0, 5).join(', ')}${failed.length > 5 ? ` and ${failed.length - 5} more` : ''}`
      : `${unknown} of ${report.counts.routes} Routes cannot be predicted from the objects (strict)`
  }
  const names = notReadyRoutes(report)
  const shown = names.slice(0, 5).join(', ')
  const more = names.length > 5 ? ` and ${names.length - 5} more` : ''
  const when = report.timedOut ? ' at the deadline' : ''
  return `${names.length} of ${report.counts.routes} Routes not ready${when}: ${shown}${more}`
}

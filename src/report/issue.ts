// The monitor's tracking issue: its title, its body (every failing Route with its problems and fixes)
// and the comment posted when Routes degrade or recover. Renderings of the report only: which
// transitions are degradations is the model's word (changeOf).
import { changeOf } from '../model/transitions.ts'
import type { Report, RouteResult, Transition } from '../model/types.ts'
import { escapeMarkdownInline as md, truncate } from './escape.ts'
import { problemReason, routeId } from './labels.ts'
import { renderSummary } from './summary.ts'

export function issueTitle(clusterName: string): string {
  return `route-gate: failing Routes on cluster ${clusterName}`
}

export interface IssueBodyOptions {
  clusterName: string
  runUrl?: string
  /** UTF-8 bytes the visible body may take */
  maxBytes: number
}

function runLink(runUrl: string | undefined, text: string): string {
  return runUrl === undefined ? text : `[${text}](${runUrl})`
}

/** Only the Routes that are not ready: the counts still speak of all of them. */
export function notReadyOnly(report: Report): Report {
  return { ...report, routes: report.routes.filter((r) => r.verdict !== 'ready') }
}

export function renderIssueBody(report: Report, options: IssueBodyOptions): string {
  const checked = report.finishedAt === undefined ? '' : ` ${md(report.finishedAt)}`
  const intro = [
    `Cluster **${md(options.clusterName)}**, checked${checked} by ${runLink(options.runUrl, 'this run')}.`,
    report.verdict === 'ready'
      ? 'Every Route is ready. This issue reopens when a run finds a Route that is not.'
      : 'route-gate updates this issue on every monitor run and closes it when every Route is ready.'
  ].join(' ')
  const summary = renderSummary(notReadyOnly(report), {
    maxBytes: Math.max(1000, options.maxBytes - Buffer.byteLength(intro) - 2)
  })
  return `${intro}\n\n${summary}`
}

const CHANGE_LIMIT = 100
const ICON = { degraded: '❌', recovered: '✅', added: '🆕', removed: '🗑️', changed: '🔁' }
const HEADING = {
  degraded: 'degraded',
  recovered: 'recovered',
  added: 'new',
  removed: 'deleted',
  changed: 'changed'
}

function why(route: RouteResult | undefined): string {
  if (route === undefined || route.verdict === 'ready') return ''
  const problems = [...(route.problems ?? []), ...route.parents.flatMap((p) => p.problems)]
  const first = problems.find((p) => p.severity === 'error') ?? problems[0]
  if (first === undefined) return ''
  const more = problems.length > 1 ? ` (+${problems.length - 1} more)` : ''
  return ` — ${md(problemReason(first))}: ${md(truncate(first.title, 200))}${more}`
}

/**
 * The comment for a run in which Routes degraded or recovered; undefined when neither happened (new,
 * deleted and otherwise changed Routes are listed only alongside them).
 */
export function renderChangeComment(report: Report, runUrl?: string): string | undefined {
  const transitions = report.transitions ?? []
  const counts = { degraded: 0, recovered: 0, added: 0, removed: 0, changed: 0 }
  for (const t of transitions) counts[changeOf(t)] += 1
  if (counts.degraded + counts.recovered === 0) return undefined
  const routes = new Map(report.routes.map((r) => [`${r.kind}/${r.namespace}/${r.name}`, r]))
  const order = ['degraded', 'recovered', 'added', 'removed', 'changed'] as const
  const sorted = [...transitions].sort(
    (a, b) => order.indexOf(changeOf(a)) - order.indexOf(changeOf(b))
  )
  const line = (t: Transition): string =>
    `- ${ICON[changeOf(t)]} **${md(routeId(t))}**: ${t.from} → ${t.to}${why(routes.get(`${t.kind}/${t.namespace}/${t.name}`))}`
  const lines = sorted.slice(0, CHANGE_LIMIT).map(line)
  if (sorted.length > CHANGE_LIMIT) lines.push(`- … ${sorted.length - CHANGE_LIMIT} more changes`)
  const headline = order
    .filter((c) => counts[c] > 0)
    .map((c) => `${counts[c]} ${HEADING[c]}`)
    .join(' · ')
  return [
    `### ${counts.degraded > 0 ? '❌' : '✅'} ${headline}`,
    '',
    ...lines,
    '',
    `${runLink(runUrl, 'This run')}: ${report.counts.ready} of ${report.counts.routes} Routes ready.`
  ].join('\n')
}

// The GitHub job summary, for a reader in a hurry: the verdict at a glance, a table of the Routes that
// need attention, the ready ones on one collapsed line with their time to ready, then what is wrong
// with each Route that is not ready and what to do about it, each explanation said once. Every cluster
// string passes through the escapers; the whole stays under the runner's 1 MiB summary limit.

import { fixHeading, fixHowTo, fixYaml } from './fix-text.ts'
import type {
  AnyParentResult,
  Problem,
  AnyReport,
  AnyRouteResult,
  ReportVerdict
} from '../model/types.ts'
import { escapeMarkdownInline as md, fencedCode, truncate } from './escape.ts'
import { sourceLink, type SourceLinks } from './source-link.ts'
import {
  chainLabel,
  conditionLabel,
  formatDuration,
  formatParentRef,
  predictionLines,
  probeLabel,
  problemReason,
  routeId
} from './labels.ts'

const DEFAULT_MAX_BYTES = 1_000_000

// Per-field limits, so that one enormous message cannot crowd out every other Route.
const LIMITS = {
  title: 300,
  reason: 100,
  remediation: 3000,
  quotedMessage: 500,
  fullMessage: 20_000,
  evidenceItem: 1000,
  evidenceItems: 50,
  fix: 20_000,
  note: 1000,
  notes: 50,
  transitions: 200,
  readyParents: 5
}

// Evidence this short reads better in the open than behind a click.
const INLINE_EVIDENCE = { items: 3, chars: 600 }

const ICON: Record<ReportVerdict, string> = {
  ready: '✅',
  failed: '❌',
  pending: '⏳',
  unknown: '❔'
}
const WARNING_ICON = '⚠️'

// Failed first, then pending, then ready with warnings, then plain ready: the order in which a reader
// needs them, and the order in which the size cap keeps them.
function rank(route: AnyRouteResult): number {
  if (route.verdict === 'failed') return 0
  if (route.verdict === 'pending' || route.verdict === 'unknown') return 1
  return hasWarnings(route) ? 2 : 3
}

// no array of problems: the summary's ordering asks this of every Route many times
function hasWarnings(route: AnyRouteResult): boolean {
  return (route.problems?.length ?? 0) > 0 || route.parents.some((p) => p.problems.length > 0)
}

function routeIcon(route: AnyRouteResult): string {
  return route.verdict === 'ready' && hasWarnings(route) ? WARNING_ICON : ICON[route.verdict]
}

function parentIcon(parent: AnyParentResult): string {
  return parent.verdict === 'ready' && parent.problems.length > 0
    ? WARNING_ICON
    : ICON[parent.verdict]
}

function bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8')
}

function headline(report: AnyReport): string {
  const { counts } = report
  const title =
    counts.routes === 0
      ? 'no Routes found'
      : `${counts.ready} of ${counts.routes} Route${counts.routes === 1 ? '' : 's'}${report.mode === 'predict' ? ' predicted' : ''} ready`
  const facts = [
    counts.failed > 0 ? `**${counts.failed} failed**` : undefined,
    counts.pending > 0 ? `**${counts.pending} pending**` : undefined,
    (counts.unknown ?? 0) > 0 ? `**${counts.unknown} unknown**` : undefined,
    `mode: ${report.mode}`,
    report.elapsedMs === undefined ? undefined : `elapsed ${formatDuration(report.elapsedMs)}`,
    report.timedOut === true
      ? '⏱️ timed out: parents still pending at the deadline count as failed'
      : undefined
  ].filter((fact) => fact !== undefined)
  const lines = [`## ${ICON[report.verdict]} route-gate: ${title}`, '', facts.join(' · ')]
  if (report.mode === 'predict' && report.verdict !== 'ready' && counts.routes > 0) {
    lines.push(
      '',
      'Predicted before anything is applied: what a conformant controller would write for each ' +
        'parent of each Route in the manifests. `failed` is decided by the objects; `unknown` says ' +
        'what the objects cannot tell.'
    )
  } else if (report.verdict !== 'ready' && counts.routes > 0) {
    lines.push(
      '',
      'A Route is ready when every Gateway it names (its parents) has accepted it and resolved its ' +
        'backends. Each Route below that is not ready says what is wrong and what to do.'
    )
  }
  return lines.join('\n')
}

function transitionsSection(report: AnyReport): string {
  const transitions = report.transitions ?? []
  if (transitions.length === 0) return ''
  const shown = transitions.slice(0, LIMITS.transitions)
  const rows = shown.map((t) => `| ${md(routeId(t))} | ${md(t.from)} | ${md(t.to)} |`)
  const more =
    transitions.length > shown.length
      ? [`\n… ${transitions.length - shown.length} more changes not shown`]
      : []
  return [
    '### Changes since the last run',
    '',
    '| Route | was | now |',
    '| --- | --- | --- |',
    ...rows,
    ...more
  ].join('\n')
}

const TABLE_HEAD = [
  '### Routes that need attention',
  '',
  '| | Route | Parent | Controller | Reason |',
  '| :-: | --- | --- | --- | --- |'
].join('\n')

function reasons(problems: Problem[]): string {
  if (problems.length === 0) return '—'
  const unique = [...new Set(problems.map((problem) => problem.reason))]
  return unique.map((reason) => md(truncate(reason, LIMITS.reason))).join(', ')
}

function tableRows(route: AnyRouteResult): string[] {
  const name = `${md(route.kind)} <code>${md(`${route.namespace}/${route.name}`)}</code>`
  const rows = route.parents.map((parent) => {
    const controller = parent.controllerName ? md(parent.controllerName) : '—'
    const probe = parent.probe ? `<br>${md(probeLabel(parent.probe))}` : ''
    return `| ${parentIcon(parent)} | ${name} | ${md(formatParentRef(parent.parentRef))} | ${controller} | ${reasons(parent.problems)}${probe} |`
  })
  const routeProblems = route.problems ?? []
  if (routeProblems.length > 0 || route.parents.length === 0) {
    const parent = route.parents.length === 0 ? '<i>no parentRefs</i>' : '<i>the Route itself</i>'
    rows.push(`| ${routeIcon(route)} | ${name} | ${parent} | — | ${reasons(routeProblems)} |`)
  }
  return rows
}

const DETAILS_HEADING = '## What is wrong and what to do'

function details(summary: string, body: string): string {
  return `<details><summary>${summary}</summary>\n\n${body}\n\n</details>`
}

function messageBlock(message: string): string {
  if (message.length <= LIMITS.quotedMessage) return `> ${md(message)}`
  return [
    `> ${md(truncate(message, LIMITS.quotedMessage))}`,
    '',
    details('Full controller message', fencedCode(truncate(message, LIMITS.fullMessage), 'text'))
  ].join('\n')
}

function evidenceBlock(evidence: string[]): string {
  const shown = evidence.slice(0, LIMITS.evidenceItems)
  const items = shown.map((item) => `- ${md(truncate(item, LIMITS.evidenceItem))}`)
  if (evidence.length > shown.length) items.push(`- … ${evidence.length - shown.length} more`)
  const list = items.join('\n')
  const short =
    evidence.length <= INLINE_EVIDENCE.items &&
    evidence.reduce((total, item) => total + item.length, 0) <= INLINE_EVIDENCE.chars
  return short ? `Evidence:\n\n${list}` : details(`Evidence (${evidence.length})`, list)
}

/**
 * The explanations already written, by their text, with where: a problem shared by several parents
 * or Routes (one missing Service behind many) is explained once and then pointed at.
 */
class Said {
  private readonly where = new Map<string, string>()

  once(block: string, headline: string, place: string): string {
    const first = this.where.get(block)
    if (first !== undefined) return `${headline} — as explained for ${first} above.`
    this.where.set(block, place)
    return block
  }
}

function problemHeadline(problem: Problem): string {
  const icon = problem.severity === 'warning' ? WARNING_ICON : '❌'
  return `${icon} **${md(truncate(problem.title, LIMITS.title))}**`
}

/**
 * Problems of one parent (or Route) that would read the same: same title, advice and fix, differing
 * only in the condition they are about (a status behind on Accepted and on ResolvedRefs), shown as
 * one block with every reason, message and evidence line once.
 */
interface ProblemGroup {
  problem: Problem
  reasons: string[]
  messages: string[]
  evidence: string[]
}

function groupProblems(problems: Problem[]): ProblemGroup[] {
  const groups = new Map<string, ProblemGroup>()
  for (const problem of problems) {
    const key = JSON.stringify([
      problem.severity,
      problem.title,
      problem.remediation,
      problem.fixes
    ])
    const group = groups.get(key) ?? { problem, reasons: [], messages: [], evidence: [] }
    groups.set(key, group)
    const add = (list: string[], item: string | undefined): void => {
      if (item !== undefined && item.trim() !== '' && !list.includes(item)) list.push(item)
    }
    add(group.reasons, problemReason(problem))
    add(group.messages, problem.message)
    for (const item of problem.evidence ?? []) add(group.evidence, item)
  }
  return [...groups.values()]
}

function problemBlock({ problem, reasons, messages, evidence }: ProblemGroup): string {
  const parts = [`${problemHeadline(problem)} — ${md(reasons.join(', '))}`]
  parts.push(...messages.map(messageBlock))
  parts.push(`**What to do:** ${md(truncate(problem.remediation, LIMITS.remediation))}`)
  if (evidence.length > 0) parts.push(evidenceBlock(evidence))
  for (const fix of problem.fixes ?? []) {
    const yaml = fixYaml(fix)
    const how = md(truncate(fixHowTo(fix), LIMITS.remediation))
    parts.push(
      details(
        `Suggested fix: ${md(truncate(fixHeading(fix), LIMITS.title))}`,
        yaml === '' ? how : `${how}\n\n${fencedCode(truncate(yaml, LIMITS.fix), 'yaml')}`
      )
    )
  }
  return parts.join('\n\n')
}

function parentBlock(parent: AnyParentResult, explain: (group: ProblemGroup) => string): string {
  const facts = [
    `${parentIcon(parent)} ${parent.verdict}`,
    parent.controllerName
      ? `controller ${md(parent.controllerName)}`
      : 'no controller has written status for it',
    ...(parent.conditions ?? []).map((condition) => md(conditionLabel(condition)))
  ]
  const chain =
    parent.chain === undefined
      ? []
      : [`Path: ${chainLabel(parent.chain, { ok: '✅', broken: '❌', unknown: '❔' }, md)}`]
  return [
    `#### Parent ${md(formatParentRef(parent.parentRef))}`,
    facts.join(' · '),
    ...chain,
    ...(parent.why ?? []).map((why) => `Cannot tell: ${md(truncate(why, LIMITS.note))}`),
    ...groupProblems(parent.problems).map(explain)
  ].join('\n\n')
}

/** "ready after 12.3s" from the run's start, or "ready at the first read": only what the report proves. */
function timeToReady(route: AnyRouteResult, report: AnyReport): string | undefined {
  if (route.verdict !== 'ready' || report.mode !== 'gate' || report.startedAt === undefined)
    return undefined
  if (route.readyAt === undefined) return 'ready at the first read'
  const ms = Date.parse(route.readyAt) - Date.parse(report.startedAt)
  return Number.isFinite(ms) && ms >= 0 ? `ready after ${formatDuration(ms)}` : undefined
}

function sourceText(route: AnyRouteResult, links: SourceLinks | undefined): string | undefined {
  if (route.source === undefined) return undefined
  const label = md(`${route.source.file}:${route.source.line}`)
  const url = links && sourceLink(links, route.source)
  return url === undefined ? label : `[${label}](${url})`
}

function routeDetail(
  route: AnyRouteResult,
  report: AnyReport,
  said: Said,
  links: SourceLinks | undefined
): string {
  const id = routeId(route)
  const parts = [`### ${routeIcon(route)} ${md(id)}`]
  const source = sourceText(route, links)
  const facts = [
    source === undefined ? undefined : `from ${source}`,
    route.generation === undefined ? undefined : `generation ${route.generation}`,
    timeToReady(route, report),
    route.orphans !== undefined && route.orphans.length > 0
      ? `${route.orphans.length} status entr${route.orphans.length === 1 ? 'y names' : 'ies name'} no parentRef of this Route (not judged)`
      : undefined
  ].filter((fact) => fact !== undefined)
  if (facts.length > 0) parts.push(facts.join(' · '))
  const explain =
    (place: string) =>
    (group: ProblemGroup): string =>
      said.once(problemBlock(group), problemHeadline(group.problem), md(place))
  parts.push(...groupProblems(route.problems ?? []).map(explain(id)))
  parts.push(
    ...route.parents
      .filter((parent) => parent.verdict !== 'ready' || parent.problems.length > 0)
      .map((parent) =>
        parentBlock(parent, explain(`${id}, parent ${formatParentRef(parent.parentRef)}`))
      )
  )
  return parts.join('\n\n')
}

function readyRow(route: AnyRouteResult, report: AnyReport): string {
  const parents = route.parents
    .slice(0, LIMITS.readyParents)
    .map((p) => formatParentRef(p.parentRef))
  const more = route.parents.length - parents.length
  const parentText = md(parents.join(', ')) + (more > 0 ? ` and ${more} more` : '')
  const time = timeToReady(route, report)
  return `| ${md(route.kind)} <code>${md(`${route.namespace}/${route.name}`)}</code> | ${parentText} |${time === undefined ? '' : ` ${time.replace(/^ready /, '')} |`}`
}

/** Every plainly ready Route on one collapsed line: the count in view, the list a click away. */
function readySection(rows: string[], total: number, others: boolean, timed: boolean): string {
  if (total === 0) return ''
  const label = `${total} ${others ? 'other ' : ''}Route${total === 1 ? '' : 's'} ready`
  const head = timed
    ? ['| Route | Parents | Ready |', '| --- | --- | --- |']
    : ['| Route | Parents |', '| --- | --- |']
  const list = rows.length === 0 ? '' : `\n\n${[...head, ...rows].join('\n')}`
  return `<details><summary>✅ ${label}</summary>${list}\n\n</details>`
}

function notesSection(report: AnyReport): string {
  const notes = [
    ...(report.prediction ? predictionLines(report.prediction) : []),
    ...(report.notes ?? [])
  ]
  if (notes.length === 0) return ''
  const shown = notes.slice(0, LIMITS.notes).map((note) => `- ${md(truncate(note, LIMITS.note))}`)
  if (notes.length > LIMITS.notes) shown.push(`- … ${notes.length - LIMITS.notes} more notes`)
  return ['### Notes', '', ...shown].join('\n')
}

function footer(report: AnyReport): string {
  const tool =
    report.tool === undefined ? 'route-gate' : `${report.tool.name} ${report.tool.version}`
  return `<sub>${md(tool)} · report schemaVersion ${report.schemaVersion}</sub>`
}

/** Cuts to at most `max` UTF-8 bytes without splitting a character: the last guard of the cap. */
function cutBytes(text: string, max: number): string {
  if (bytes(text) <= max) return text
  const ending = '…\n'
  const room = Math.max(0, max - bytes(ending))
  // a UTF-16 unit is at most 3 UTF-8 bytes, so this start is already close
  let end = Math.min(text.length, room)
  while (end > 0 && bytes(text.slice(0, end)) > room) end -= Math.max(1, Math.floor(end / 20))
  const last = text.charCodeAt(end - 1)
  if (last >= 0xd800 && last <= 0xdbff) end -= 1
  return `${text.slice(0, Math.max(0, end))}${ending}`
}

export interface SummaryOptions {
  maxBytes?: number
  /** where the manifests live on GitHub: a Route's file:line becomes a link to it */
  links?: SourceLinks
  /** the JSON report's path, named where the summary leaves Routes out */
  reportFile?: string
}

export function renderSummary(report: AnyReport, options: SummaryOptions = {}): string {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES
  const said = new Said()
  const timed = report.mode === 'gate' && report.startedAt !== undefined
  const routes = report.routes
    .map((route, index) => ({ route, index }))
    .sort((a, b) => rank(a.route) - rank(b.route) || a.index - b.index)
    .map(({ route }) => route)
  const attention = routes.filter((route) => rank(route) < 3).length
  const readyTotal = routes.length - attention

  const fixed = [headline(report), transitionsSection(report), notesSection(report), footer(report)]
  const omittedLine = (count: number): string =>
    `**… ${count} more Route${count === 1 ? '' : 's'} not shown**: the summary is capped at ` +
    `${maxBytes} bytes; the JSON report lists every Route` +
    (options.reportFile === undefined
      ? '.'
      : ` (the report-file output: ${md(options.reportFile)}).`)
  // Blocks are joined by blank lines; the reserve covers those joints and the lines added below.
  const reserve =
    bytes(TABLE_HEAD) +
    bytes(DETAILS_HEADING) +
    bytes(omittedLine(routes.length)) +
    bytes(readySection([], readyTotal, attention > 0, timed)) +
    128
  let budget = maxBytes - reserve - fixed.reduce((total, block) => total + bytes(block) + 2, 0)

  const rows: string[] = []
  const readyRows: string[] = []
  const detailBlocks: string[] = []
  let shown = 0
  for (const route of routes) {
    const plainReady = rank(route) === 3
    const routeRows = plainReady ? [readyRow(route, report)] : tableRows(route)
    const detail = plainReady ? '' : routeDetail(route, report, said, options.links)
    const size =
      routeRows.reduce((total, row) => total + bytes(row) + 1, 0) + (detail ? bytes(detail) + 2 : 0)
    if (size > budget) break
    budget -= size
    shown += 1
    ;(plainReady ? readyRows : rows).push(...routeRows)
    if (detail) detailBlocks.push(detail)
  }

  const omitted = routes.length - shown
  const table = rows.length === 0 ? '' : [TABLE_HEAD, ...rows].join('\n')
  const [head, transitions, notes, foot] = fixed
  const blocks = [
    head,
    transitions,
    table,
    readySection(readyRows, readyTotal, attention > 0, timed),
    omitted > 0 ? omittedLine(omitted) : '',
    ...(detailBlocks.length > 0 ? [DETAILS_HEADING, ...detailBlocks] : []),
    notes,
    foot
  ].filter(Boolean)
  return cutBytes(`${blocks.join('\n\n')}\n`, maxBytes)
}

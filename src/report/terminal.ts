// The CLI's terminal rendering. The CLI may run inside a workflow step, where stdout is the workflow
// log, so cluster text passes through safeLogLine: no escapes of its own, no workflow commands.

import { fixHeading, fixHowTo, fixYaml } from './fix-text.ts'
import type {
  AnyParentResult,
  Mode,
  Problem,
  AnyReport,
  AnyRouteResult,
  ReportVerdict
} from '../model/types.ts'
import { safeLogLine, truncate } from './escape.ts'
import {
  chainLabel,
  conditionLabel,
  formatDuration,
  formatParentRef,
  messageLabel,
  orphanLabel,
  predictionLines,
  probeLabel,
  problemReason,
  routeId
} from './labels.ts'

const FULL_TEXT = 20_000
const SHORT_LINE = 120

type Paint = (text: string) => string

interface Palette {
  ready: Paint
  failed: Paint
  pending: Paint
  unknown: Paint
  warning: Paint
  dim: Paint
  bold: Paint
}

function sgr(open: number, close: number): Paint {
  return (text) => `\u001b[${open}m${text}\u001b[${close}m`
}

const COLOR: Palette = {
  ready: sgr(32, 39),
  failed: sgr(31, 39),
  pending: sgr(33, 39),
  unknown: sgr(35, 39),
  warning: sgr(33, 39),
  dim: sgr(2, 22),
  bold: sgr(1, 22)
}

const identity: Paint = (text) => text
const PLAIN: Palette = {
  ready: identity,
  failed: identity,
  pending: identity,
  unknown: identity,
  warning: identity,
  dim: identity,
  bold: identity
}

const ICON: Record<ReportVerdict, string> = { ready: '✓', failed: '✗', pending: '○', unknown: '?' }
const WARNING_ICON = '⚠'

/** Cluster text, made safe for the log and indented line by line. */
function block(text: string, indent: string): string[] {
  return safeLogLine(truncate(text, FULL_TEXT))
    .split('\n')
    .map((line) => `${indent}${line}`)
}

/** A list item of cluster text; its continuation lines align under its first. */
function bullet(text: string, indent: string): string[] {
  return block(text, '').map((line, i) => `${indent}${i === 0 ? '- ' : '  '}${line}`)
}

/** "label text" on one line when the text is short, else the label with the text indented below. */
function labeled(label: string, text: string, indent: string): string[] {
  if (!text.includes('\n') && text.length <= SHORT_LINE) return [`${indent}${label} ${safe(text)}`]
  return [`${indent}${label}`, ...block(text, `${indent}  `)]
}

function safe(text: string): string {
  return safeLogLine(text).replace(/\n/g, ' ')
}

function problemLines(problem: Problem, indent: string, paint: Palette, mode: Mode): string[] {
  const icon =
    problem.severity === 'warning' ? paint.warning(WARNING_ICON) : paint.failed(ICON.failed)
  const lines = [
    `${indent}${icon} ${safe(problem.title)} ${paint.dim(`[${safe(problemReason(problem))}]`)}`
  ]
  const inner = `${indent}  `
  if (problem.message !== undefined && problem.message.trim() !== '') {
    lines.push(...labeled(paint.dim(`${messageLabel(mode, problem)}:`), problem.message, inner))
  }
  lines.push(...labeled(paint.bold('what to do:'), problem.remediation, inner))
  if (problem.evidence !== undefined && problem.evidence.length > 0) {
    lines.push(`${inner}${paint.dim('evidence:')}`)
    lines.push(...problem.evidence.flatMap((item) => bullet(item, `${inner}  `)))
  }
  for (const fix of problem.fixes ?? []) {
    lines.push(...labeled(paint.dim('suggested fix:'), fixHeading(fix), inner))
    lines.push(...block(fixHowTo(fix), `${inner}  `))
    const yaml = fixYaml(fix)
    if (yaml !== '') lines.push(...block(yaml.trimEnd(), `${inner}  `))
  }
  return lines
}

function parentLines(parent: AnyParentResult, paint: Palette, mode: Mode): string[] {
  const warned = parent.verdict === 'ready' && parent.problems.length > 0
  const icon = warned ? paint.warning(WARNING_ICON) : paint[parent.verdict](ICON[parent.verdict])
  const facts = [
    parent.controllerName ? safe(parent.controllerName) : 'no status judged',
    ...(parent.conditions ?? []).map((condition) => safe(conditionLabel(condition))),
    ...(parent.probe ? [safe(probeLabel(parent.probe))] : [])
  ]
  const chain =
    parent.chain === undefined
      ? []
      : [
          `        path: ${chainLabel(parent.chain, { ok: '', broken: paint.failed('✗ BROKEN:'), unknown: '?' }, safe)}`
        ]
  return [
    `    ${icon} parent ${safe(formatParentRef(parent.parentRef))}  ${paint[parent.verdict](parent.verdict)}  ${paint.dim(facts.join(' · '))}`,
    ...chain,
    // a why the Unpredictable problem below already says is not said twice
    ...(parent.why ?? [])
      .filter(
        (why) =>
          !parent.problems.some((p) => p.reason === 'Unpredictable' && p.message?.includes(why))
      )
      .flatMap((why) => labeled(paint.dim('cannot tell:'), why, '        ')),
    ...parent.problems.flatMap((problem) => problemLines(problem, '        ', paint, mode))
  ]
}

function routeLines(route: AnyRouteResult, paint: Palette, mode: Mode): string[] {
  const problems = route.problems ?? []
  const warned =
    route.verdict === 'ready' &&
    (problems.length > 0 || route.parents.some((parent) => parent.problems.length > 0))
  const icon = warned ? paint.warning(WARNING_ICON) : paint[route.verdict](ICON[route.verdict])
  const source =
    route.source === undefined
      ? ''
      : `  ${paint.dim(safe(`${route.source.file}:${route.source.line}`))}`
  const verified =
    route.parents.length > 0 && route.parents.every((p) => p.probe?.state === 'serving')
  const head = `${icon} ${paint.bold(safe(routeId(route)))}  ${paint[route.verdict](route.verdict)}${verified ? paint.dim('  traffic verified') : ''}${source}`
  const orphans = route.orphans ?? []
  const orphanLines =
    orphans.length === 0
      ? []
      : [
          `    ${paint.dim('status entries for no parentRef of this Route (not judged):')}`,
          ...orphans.map((entry) => `      - ${safe(orphanLabel(entry, route.namespace))}`)
        ]
  if (route.verdict === 'ready' && !warned) return [head, ...orphanLines]
  return [
    head,
    ...problems.flatMap((problem) => problemLines(problem, '    ', paint, mode)),
    ...route.parents.flatMap((parent) => parentLines(parent, paint, mode)),
    ...orphanLines
  ]
}

const RANK: Record<ReportVerdict, number> = { failed: 0, unknown: 1, pending: 2, ready: 3 }

export function renderText(report: AnyReport, options: { color: boolean }): string {
  const paint = options.color ? COLOR : PLAIN
  const routes = report.routes
    .map((route, index) => ({ route, index }))
    .sort((a, b) => RANK[a.route.verdict] - RANK[b.route.verdict] || a.index - b.index)
    .flatMap(({ route }) => routeLines(route, paint, report.mode))

  const { counts } = report
  const predicted = report.mode === 'predict' ? ' predicted' : ''
  const verdict = `${ICON[report.verdict]} ${counts.ready} of ${counts.routes} Routes${predicted} ready`
  const facts = [
    counts.failed > 0 ? `${counts.failed} failed` : undefined,
    counts.pending > 0 ? `${counts.pending} pending` : undefined,
    (counts.unknown ?? 0) > 0 ? `${counts.unknown} unknown` : undefined,
    report.mode,
    report.elapsedMs === undefined ? undefined : formatDuration(report.elapsedMs),
    report.timedOut === true ? 'timed out' : undefined
  ].filter((fact) => fact !== undefined)
  const notes = [
    ...(report.prediction ? predictionLines(report.prediction) : []),
    ...(report.notes ?? [])
  ].flatMap((note) => bullet(note, '  '))
  return [
    ...routes,
    ...(routes.length > 0 ? [''] : []),
    `${paint[report.verdict](paint.bold(verdict))}  ${paint.dim(facts.join(' · '))}`,
    ...(notes.length > 0 ? [paint.dim('notes:'), ...notes] : []),
    ''
  ].join('\n')
}

// Hostile cluster text through every rendering at once: the job summary, the PR comment, the tracking
// issue and its change comment, annotations as @actions/core writes them, the CLI text, progress and
// error lines in the log. Route names, reasons and messages are written by others; each place must
// leave them inert: no HTML or Markdown injection, no broken table, no live @mention or #reference, no
// ANSI or control character, no workflow command, and bounded length.
import { describe, expect, it } from 'vitest'
import type { Report } from '../../src/model/types.ts'
import { failureMessage } from '../../src/jobs/outcome.ts'
import { buildAnnotations } from '../../src/report/annotations.ts'
import { renderPullRequestComment } from '../../src/report/comment.ts'
import { neutralizeWorkflowCommands, safeLogLine } from '../../src/report/escape.ts'
import { renderJson, reportForOutput } from '../../src/report/json.ts'
import { renderChangeComment, renderIssueBody } from '../../src/report/issue.ts'
import { renderSummary } from '../../src/report/summary.ts'
import { renderText } from '../../src/report/terminal.ts'
import { HOSTILE, hostileReport } from '../fixtures/report/reports.ts'
import {
  expectInertMarkdown,
  expectNoControl,
  expectNoWorkflowCommand,
  splitFences
} from '../fixtures/report/inert.ts'

// Beyond the shared fixture: bidi overrides, zero-width and line separators, a bare CR before a
// command, an entity that would decode into a tag, a Markdown table row and autolinks.
const MORE_HOSTILE = [
  'admin\u202euser\u202c \u2066isolate\u2069 zero\u200bwidth',
  'line\u2028separator\u2029paragraph',
  'carriage\r::error::after-cr',
  'mid ##[add-mask]Routes, ##[set-output name=ready;]true, ::stop-commands::tok and ::tok::',
  '&lt;script&gt; &#60;img&#62;',
  '| --- | --- |\n| fake | row |',
  '<https://evil.example> https://evil.example/@user',
  '[x]: https://evil.example "ref"'
].join('\n')

function hostile(): Report {
  const report = hostileReport()
  const [route] = report.routes
  route!.parents[0]!.problems.push({
    condition: 'ResolvedRefs',
    reason: 'Bad|Reason',
    severity: 'error',
    title: MORE_HOSTILE,
    message: MORE_HOSTILE,
    remediation: MORE_HOSTILE,
    evidence: [MORE_HOSTILE]
  })
  route!.parents[0]!.conditions = [
    {
      type: 'Accepted',
      status: 'False',
      reason: 'A|B<i>',
      message: `${HOSTILE}\n${MORE_HOSTILE}`,
      observedGeneration: 1
    }
  ]
  report.mode = 'gate'
  return report
}

/** GitHub Markdown tables: every row has exactly as many cells as the header. Returns the rows seen. */
function expectTablesIntact(markdown: string): number {
  const { outside } = splitFences(markdown)
  const lines = outside.split('\n')
  let rows = 0
  for (let i = 0; i < lines.length; i++) {
    if (!/^\|.*\|$/.test(lines[i]!) || !/^\|[\s:|-]+\|$/.test(lines[i + 1] ?? '')) continue
    const cells = (line: string): number => line.split('|').length
    const width = cells(lines[i]!)
    for (let j = i + 1; j < lines.length && lines[j]!.startsWith('|'); j++) {
      expect(cells(lines[j]!), `table row ${JSON.stringify(lines[j]!.slice(0, 120))}`).toBe(width)
      rows++
    }
  }
  return rows
}

/** What @actions/core writes for core.error(message, properties): the runner's escaping, no more. */
function coreCommand(command: string, message: string, props: Record<string, unknown>): string {
  const escapeData = (s: string): string =>
    s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
  const escapeProperty = (s: string): string =>
    escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C')
  const properties = Object.entries(props)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${escapeProperty(String(v))}`)
    .join(',')
  return `::${command} ${properties}::${escapeData(message)}`
}

const markdownRenderings = (report: Report): [string, string][] => [
  ['job summary', renderSummary(report)],
  ['PR comment', renderPullRequestComment(report, { job: 'deploy / gate', maxBytes: 65_000 })],
  ['tracking issue', renderIssueBody(report, { clusterName: 'prod', maxBytes: 65_000 })],
  ['issue change comment', renderChangeComment(report) ?? '']
]

describe('hostile cluster text', () => {
  it.each(markdownRenderings(hostile()))('%s: inert Markdown, intact tables, bounded', (_, md) => {
    expectInertMarkdown(md)
    const rows = expectTablesIntact(md)
    // the hostile Route is in the table of every rendering that has one
    expect(rows > 0 || !md.includes('| Route')).toBe(true)
    expectNoWorkflowCommand(md)
    expect(md).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/)
    // code blocks show the text as it is; everywhere else it must not act
    const { outside } = splitFences(md)
    expect(outside).not.toContain('<script')
    expect(outside).not.toMatch(/^\[x\]: https/m)
    expect(outside).not.toMatch(/<https:/)
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(1024 * 1024)
  })

  it('the change comment of a run with transitions is inert too', () => {
    const report = hostile()
    report.mode = 'monitor'
    const [route] = report.routes
    report.transitions = [
      {
        kind: route!.kind,
        namespace: route!.namespace,
        name: route!.name,
        from: 'ready',
        to: 'failed',
        change: 'degraded'
      }
    ] as unknown as Report['transitions']
    const md = renderChangeComment(report) ?? ''
    expectInertMarkdown(md)
  })

  it('annotations: one line each as core writes them, no command inside, bounded', () => {
    const annotations = buildAnnotations(hostile())
    expect(annotations.length).toBeGreaterThan(0)
    for (const a of annotations) {
      const line = coreCommand(a.level, a.message, {
        title: a.title,
        file: a.file,
        line: a.startLine
      })
      expect(line.split('\n')).toHaveLength(1)
      expectNoControl(line)
      // only the command itself starts the line; nothing in it starts another
      expect(line.startsWith(`::${a.level} `)).toBe(true)
      expect(line.slice(2)).not.toMatch(/(^|%0A|%0D)\s*::|##\[/)
      expect(a.message.length).toBeLessThanOrEqual(4096)
      expect(a.title?.length ?? 0).toBeLessThanOrEqual(256)
    }
  })

  it('CLI text: no control or escape sequence of the cluster survives, with or without colour', () => {
    for (const color of [false, true]) {
      const text = renderText(hostile(), { color })
      const withoutOwnColour = color ? text.replace(/\u001b\[(\d+(;\d+)*)?m/g, '') : text
      expectNoControl(withoutOwnColour)
      expect(withoutOwnColour).not.toContain(']8;;')
      expect(withoutOwnColour).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/)
    }
  })

  it('log lines: the failure line and any line built from cluster text are no workflow command', () => {
    const report = hostile()
    const lines = [
      safeLogLine(`route-gate: ${failureMessage(report)}`),
      safeLogLine(renderText(report, { color: false })),
      safeLogLine(`cluster: ${MORE_HOSTILE}`),
      safeLogLine(`route-gate: ${HOSTILE}`)
    ]
    for (const line of lines) {
      expectNoWorkflowCommand(line)
      expectNoControl(line)
    }
  })

  it('the fenced full message keeps the text visible, but no command and no comment opener', () => {
    const report = hostile()
    const md = renderSummary(report)
    const { code } = splitFences(md)
    expect(code.length).toBeGreaterThan(0)
    const full = code.join('\n')
    expect(full).toContain('add-mask]Routes')
    expect(full).toContain('stop-commands')
    expectNoWorkflowCommand(full)
    expect(md).not.toContain('<!--')
  })

  it('everything the CLI prints: text, Markdown and JSON carry no command at any position', () => {
    const report = hostile()
    for (const out of [
      renderText(report, { color: true }),
      renderText(report, { color: false }),
      renderSummary(report),
      renderJson(report)
    ]) {
      expectNoWorkflowCommand(neutralizeWorkflowCommands(out))
    }
    // JSON keeps the value exactly: only the way "#" is written changes
    const json = renderJson(report)
    expectNoWorkflowCommand(json)
    expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(report)))
    const output = reportForOutput(report, 256 * 1024)
    expectNoWorkflowCommand(output)
    expect((JSON.parse(output) as Report).routes[0]!.name).toBe(report.routes[0]!.name)
  })
})

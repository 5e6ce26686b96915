import { describe, expect, it } from 'vitest'
import type { Problem, Report, RouteResult } from '../../../src/model/types.ts'
import { renderSummary } from '../../../src/report/summary.ts'
import {
  expectInertMarkdown,
  expectNoMatch,
  expectNoWorkflowCommand,
  splitFences
} from '../../fixtures/report/inert.ts'
import {
  failedRoute,
  gateReport,
  hostileReport,
  notAllowed,
  readyRoute,
  refNotPermitted
} from '../../fixtures/report/reports.ts'
import { fixText } from '../../helpers/fixes.ts'

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8')

/** Table rows of the Routes table: lines that start with "| " after the header. */
function tableRows(markdown: string): string[] {
  return markdown.split('\n').filter((line) => /^\| (❌|✅|⏳|⚠️) \|/u.test(line))
}

describe('renderSummary', () => {
  const summary = renderSummary(gateReport())

  it('opens with the verdict: icon, "N of M Routes ready", failures, mode, elapsed, timeout', () => {
    const [first, , second] = summary.split('\n')
    expect(first).toBe('## ❌ route-gate: 2 of 5 Routes ready')
    expect(second).toContain('**3 failed**')
    expect(second).toContain('mode: gate')
    expect(second).toContain('elapsed 1m 4s')
    expect(second).toContain('timed out')
  })

  it('says a ready run is ready, without the explanation meant for failures', () => {
    const ready: Report = {
      schemaVersion: 1,
      mode: 'gate',
      verdict: 'ready',
      counts: { routes: 1, ready: 1, failed: 0, pending: 0 },
      elapsedMs: 4200,
      routes: [readyRoute('home')]
    }
    const out = renderSummary(ready)
    expect(out.split('\n')[0]).toBe('## ✅ route-gate: 1 of 1 Route ready')
    expect(out).toContain('elapsed 4.2s')
    expect(out).not.toContain('What is wrong')
    expect(out).not.toContain('timed out')
  })

  it('has one table row per parent of each Route that needs attention, failures first, with parent, controller and reason', () => {
    const rows = tableRows(summary)
    expect(rows).toHaveLength(5)
    expect(rows[0]).toBe(
      '| ❌ | HTTPRoute <code>shop/web</code> | infra/edge#https | projectcontour.io/gateway-controller | NotAllowedByListeners |'
    )
    expect(rows[2]).toContain('infra/internal | — | NoStatus')
    expect(rows[3]).toContain('<i>no parentRefs</i> | — | NoParentRefs')
    expect(rows[4]).toMatch(/^\| ⚠️ \| HTTPRoute <code>shop\/mirror<\/code>/u)
    for (const row of rows) expect(row.match(/\|/g)).toHaveLength(6)
  })

  it('explains each problem: title, controller message as a quote, remediation, evidence, fix as YAML', () => {
    const web = summary.slice(summary.indexOf('### ❌ HTTPRoute shop/web'))
    expect(web).toContain('from deploy/routes.yaml:12')
    expect(web).toContain(
      '❌ **No listener of Gateway infra/edge accepts Routes from namespace shop** — Accepted / NotAllowedByListeners'
    )
    expect(web).toContain(
      '> No listener allows this route: listener https allows routes from namespace Same'
    )
    expect(web).toContain('**What to do:** Label namespace shop so that listener https selects it')
    expect(web).toContain('- namespace shop labels: kubernetes.io/metadata.name=shop')
    expect(web).toContain(
      '<details><summary>Suggested fix: patch Namespace shop (proven: HTTPRoute shop/web on infra/edge#https becomes ready)</summary>\n\n' +
        'Run: kubectl label namespace shop gateway-access=shared (where a GitOps tool owns Namespace shop, make the change in its source instead, or the next sync undoes it).\n\n' +
        '```yaml\napiVersion: v1\n'
    )
    expect(splitFences(summary).code).toContain(fixText(notAllowed)?.trimEnd())
  })

  it('describes only the parents that are not ready or carry warnings', () => {
    expect(summary).toContain('#### Parent infra/internal')
    expect(summary).toContain('no controller has written status for it')
    expect(summary).not.toContain('### ✅ HTTPRoute shop/home')
    expect(summary).toContain('### ⚠️ HTTPRoute shop/mirror')
  })

  it('ends with the notes and the tool version', () => {
    const notes = summary.indexOf('### Notes')
    expect(notes).toBeGreaterThan(summary.indexOf('### ⚠️ HTTPRoute shop/mirror'))
    expect(summary.slice(notes)).toContain('- observedGeneration is absent on Route shop/home')
    expect(summary.trimEnd().endsWith('<sub>route-gate 0.1.0 · report schemaVersion 1</sub>')).toBe(
      true
    )
  })

  it('puts long evidence lists and long controller messages behind <details>', () => {
    const long = failedRoute('long', {
      ...notAllowed,
      message: 'm'.repeat(2000),
      evidence: Array.from({ length: 60 }, (_, i) => `fact ${i}`)
    })
    const out = renderSummary({ ...gateReport(), routes: [long] })
    expect(out).toContain('<details><summary>Evidence (60)</summary>')
    expect(out).toContain('- … 10 more')
    expect(out).toContain('<details><summary>Full controller message</summary>')
    expect(out).toContain(`> ${'m'.repeat(499)}…`)
  })

  it('lists monitor transitions', () => {
    const out = renderSummary({
      ...gateReport(),
      mode: 'monitor',
      transitions: [
        { kind: 'HTTPRoute', namespace: 'shop', name: 'web', from: 'ready', to: 'failed' }
      ]
    })
    expect(out).toContain('### Changes since the last run')
    expect(out).toContain('| HTTPRoute shop/web | ready | failed |')
  })

  it('renders hostile cluster text harmlessly, in the table, the details and the code blocks', () => {
    const out = renderSummary(hostileReport())
    expectInertMarkdown(out)
    // the hostile Route name stays inside its cell
    for (const row of tableRows(out)) expect(row.match(/\|/g)).toHaveLength(6)
    // the fix block holds the ``` of the content without being closed by it
    const { code } = splitFences(out)
    expect(code.some((block) => block.includes('fence:\\n```\\nbroken\\n```'))).toBe(true)
    expectNoMatch(out, /\u001b/, 'an escape character')
    // the CLI prints this Markdown to stdout, which may be a workflow log
    expectNoWorkflowCommand(out)
    // long strings are cut: the 30,000-character line appears in no single place whole
    expect(out).not.toContain('x'.repeat(20_001))
  })

  it('renders an empty run without a table', () => {
    const out = renderSummary({
      schemaVersion: 1,
      mode: 'snapshot',
      verdict: 'ready',
      counts: { routes: 0, ready: 0, failed: 0, pending: 0 },
      routes: []
    })
    expect(out).toContain('route-gate: no Routes found')
    expect(out).not.toContain('| Route |')
  })
})

describe('renderSummary size cap', () => {
  // 5,000 Routes, every other one failed with a long explanation: far over 1 MiB uncapped.
  function bigReport(): Report {
    const routes: RouteResult[] = Array.from({ length: 5000 }, (_, i) =>
      i % 2 === 0
        ? readyRoute(`ready-${i}`)
        : failedRoute(`failed-${i}`, { ...notAllowed, message: `${'detail '.repeat(60)}${i}` })
    )
    return {
      schemaVersion: 1,
      mode: 'gate',
      verdict: 'failed',
      counts: { routes: 5000, ready: 2500, failed: 2500, pending: 0 },
      routes
    }
  }

  it('stays under 1 MiB, keeps failures first and says how many Routes it left out', () => {
    const report = bigReport()
    const out = renderSummary(report)
    expect(bytes(out)).toBeLessThanOrEqual(1_000_000)
    const rows = tableRows(out)
    const shownFailed = rows.filter((row) => row.startsWith('| ❌')).length
    const shownReady = out.split('\n').filter((row) => row.startsWith('| HTTPRoute')).length
    expect(shownFailed).toBeGreaterThan(100)
    // not every failure fits, and ready Routes are cut first: none shows while a failure is missing
    expect(shownFailed).toBeLessThan(2500)
    expect(shownReady).toBe(0)
    expect(rows[0]).toContain('shop/failed-1</code>')
    const omitted = 5000 - shownFailed - shownReady
    expect(omitted).toBeGreaterThan(0)
    expect(out).toContain(`**… ${omitted} more Routes not shown**`)
    expectInertMarkdown(out)
  })

  it('names the report file that lists every Route it leaves out, escaped and within the cap', () => {
    const file = '/runner/_temp/route-gate-report-*[x](y).json'
    const out = renderSummary(bigReport(), { maxBytes: 20_000, reportFile: file })
    expect(bytes(out)).toBeLessThanOrEqual(20_000)
    const line = out.split('\n').find((l) => l.includes('more Routes not shown'))
    expect(line).toContain('the JSON report lists every Route (the report-file output: ')
    expect(line).not.toContain(file)
    expect(line).toContain('route-gate-report-')
    expectInertMarkdown(out)
  })

  it('honours a smaller maxBytes, counting UTF-8 bytes', () => {
    const report = bigReport()
    report.routes = report.routes.map((route) => ({ ...route, name: `${route.name}-ünïcødé-😀` }))
    const out = renderSummary(report, { maxBytes: 20_000 })
    expect(bytes(out)).toBeLessThanOrEqual(20_000)
    expect(out).toContain('more Routes not shown')
    expect(tableRows(out).length).toBeGreaterThan(0)
  })

  it('stays under even a tiny cap', () => {
    for (const maxBytes of [300, 301, 302, 303]) {
      expect(bytes(renderSummary(hostileReport(), { maxBytes }))).toBeLessThanOrEqual(maxBytes)
    }
    const out = renderSummary(hostileReport(), { maxBytes: 300 })
    expect(out.endsWith('…\n')).toBe(true)
    expect(out.isWellFormed()).toBe(true)
    expect(out.startsWith('## ❌ route-gate: 0 of 1 Route ready')).toBe(true)
  })

  it('cuts ready Routes before failed ones when only some must go', () => {
    const routes = [
      ...Array.from({ length: 50 }, (_, i) => readyRoute(`ready-${i}`)),
      failedRoute('web')
    ]
    const report: Report = { ...bigReport(), routes }
    const full = renderSummary(report, { maxBytes: 10_000_000 })
    const out = renderSummary(report, { maxBytes: bytes(full) - 500 })
    expect(out).toContain('### ❌ HTTPRoute shop/web')
    expect(out).toContain('more Routes not shown')
    expect(tableRows(out)[0]).toContain('shop/web')
  })
})

describe('renderSummary for a reader in a hurry', () => {
  const started = '2026-07-01T10:00:00.000Z'
  const at = (seconds: number): string =>
    new Date(Date.parse(started) + seconds * 1000).toISOString()
  const allReady = (routes: RouteResult[], mode: Report['mode'] = 'gate'): Report => ({
    schemaVersion: 1,
    mode,
    verdict: 'ready',
    counts: { routes: routes.length, ready: routes.length, failed: 0, pending: 0 },
    startedAt: started,
    finishedAt: at(30),
    elapsedMs: 30_000,
    routes
  })
  /** The collapsed ready section: its summary line and its rows. */
  function readySection(markdown: string): { line: string; rows: string[] } {
    const start = markdown.indexOf('<details><summary>✅')
    expect(start, 'a ready section').toBeGreaterThanOrEqual(0)
    const section = markdown.slice(start, markdown.indexOf('</details>', start))
    const [line = '', ...rest] = section.split('\n')
    return { line, rows: rest.filter((l) => l.startsWith('| ') && !/^\| (Route|---) /.test(l)) }
  }

  it('puts ready Routes on one collapsed line with their count, and no table of them', () => {
    const out = renderSummary(allReady([readyRoute('a'), readyRoute('b'), readyRoute('c')]))
    const { line, rows } = readySection(out)
    expect(line).toBe('<details><summary>✅ 3 Routes ready</summary>')
    expect(rows).toHaveLength(3)
    expect(rows[0]).toMatch(/^\| HTTPRoute <code>shop\/a<\/code> \| infra\/edge \|/)
    expect(out).not.toContain('Routes that need attention')
    expect(tableRows(out)).toEqual([])
    expectInertMarkdown(out)
  })

  it('beside failures, counts the other ready Routes once, not in the table of failures', () => {
    const out = renderSummary(gateReport())
    expect(readySection(out).line).toBe('<details><summary>✅ 1 other Route ready</summary>')
    expect(readySection(out).rows.join('\n')).toContain('shop/home')
    expect(tableRows(out).join('\n')).not.toContain('shop/home')
    // the ready Route with a warning is shown where its warning is, not in the ready list
    expect(readySection(out).rows.join('\n')).not.toContain('shop/mirror')
  })

  it("gives each Route's time to ready from the run's start, or says it was ready at the first read", () => {
    const out = renderSummary(
      allReady([{ ...readyRoute('slow'), readyAt: at(12.5) }, readyRoute('already')])
    )
    const { rows } = readySection(out)
    expect(out).toContain('| Route | Parents | Ready |')
    expect(rows.find((r) => r.includes('shop/slow'))).toMatch(/\| after 12\.5s \|$/)
    expect(rows.find((r) => r.includes('shop/already'))).toMatch(/\| at the first read \|$/)
  })

  it('shows the time to ready of a ready Route with warnings in its explanation', () => {
    const report = gateReport()
    report.routes = report.routes.map((r) => (r.name === 'mirror' ? { ...r, readyAt: at(3) } : r))
    const out = renderSummary(report)
    const mirror = out.slice(out.indexOf('### ⚠️ HTTPRoute shop/mirror'))
    expect(mirror.split('\n\n')[1]).toContain('ready after 3.0s')
  })

  it('claims no time to ready where the report cannot prove one: outside gate mode or without a start', () => {
    const snapshot = renderSummary(allReady([{ ...readyRoute('a'), readyAt: at(5) }], 'snapshot'))
    expect(snapshot).toContain('| Route | Parents |\n| --- | --- |\n')
    expect(snapshot).not.toMatch(/after|first read/)
    const { startedAt: _, ...noStart } = allReady([readyRoute('a')])
    expect(renderSummary(noStart)).not.toMatch(/after|first read/)
    const before = renderSummary(allReady([{ ...readyRoute('a'), readyAt: at(-5) }]))
    expect(before).not.toMatch(/after -|after \d/)
  })

  it('links file:line to the file at the commit when the runner says where it is', () => {
    const links = {
      server: 'https://github.com',
      repository: 'acme/shop',
      sha: 'a'.repeat(40)
    }
    const out = renderSummary(gateReport(), { links })
    expect(out).toContain(
      `from [deploy/routes.yaml:12](https://github.com/acme/shop/blob/${'a'.repeat(40)}/deploy/routes.yaml#L12)`
    )
    expect(renderSummary(gateReport())).toContain('from deploy/routes.yaml:12 ·')
  })

  it('encodes a path so it cannot end the link, and does not link a path outside the repository', () => {
    const links = {
      server: 'https://ghe.example.com',
      repository: 'acme/shop',
      sha: 'b'.repeat(40)
    }
    const withFile = (file: string): Report => ({
      ...gateReport(),
      routes: [{ ...failedRoute('web'), source: { file, line: 7 } }]
    })
    const odd = renderSummary(withFile('deploy/a b/(x)#[y].yaml'), { links })
    expect(odd).toContain(
      `(https://ghe.example.com/acme/shop/blob/${'b'.repeat(40)}/deploy/a%20b/%28x%29%23%5By%5D.yaml#L7)`
    )
    expectInertMarkdown(odd)
    for (const file of ['/etc/passwd', '../other/routes.yaml', 'a/../../b.yaml', '-']) {
      const out = renderSummary(withFile(file), { links })
      expect(out, file).not.toContain('](https://')
    }
  })

  it('explains a problem shared by several Routes once, then points at it', () => {
    const report: Report = {
      ...gateReport(),
      routes: [failedRoute('a'), failedRoute('b'), failedRoute('c', refNotPermitted)]
    }
    const out = renderSummary(report)
    expect(out.split('**What to do:**')).toHaveLength(3)
    expect(out.split('Suggested fix: ')).toHaveLength(3)
    const b = out.slice(
      out.indexOf('### ❌ HTTPRoute shop/b'),
      out.indexOf('### ❌ HTTPRoute shop/c')
    )
    expect(b).toContain(
      `❌ **${notAllowed.title}** — as explained for HTTPRoute shop/a, parent infra/edge#https above.`
    )
  })

  it('explains a problem shared by two parents of one Route once', () => {
    const route = failedRoute('web')
    const parent = route.parents[0]!
    route.parents = [parent, { ...parent, parentRef: { ...parent.parentRef, sectionName: 'http' } }]
    const out = renderSummary({ ...gateReport(), routes: [route] })
    expect(out).toContain('#### Parent infra/edge#https')
    expect(out).toContain('#### Parent infra/edge#http\n')
    expect(out.split('**What to do:**')).toHaveLength(2)
    expect(out).toContain('as explained for HTTPRoute shop/web, parent infra/edge#https above.')
  })

  it('shows problems of one parent that differ only in their condition as one block', () => {
    const stale = (condition: string): Problem => ({
      condition,
      reason: 'StaleStatus',
      standard: false,
      severity: 'warning',
      title: 'Status is 1 generation behind the Route',
      message: `${condition} message`,
      remediation: 'Read the controller logs.',
      evidence: [`${condition} was written for generation 3`, 'the controller is running']
    })
    const route = failedRoute('web')
    route.parents[0]!.problems = [stale('Accepted'), stale('ResolvedRefs')]
    const out = renderSummary({ ...gateReport(), routes: [route] })
    expect(out).toContain(
      '⚠️ **Status is 1 generation behind the Route** — Accepted / StaleStatus, ResolvedRefs / StaleStatus'
    )
    expect(out).toContain('> Accepted message\n\n> ResolvedRefs message')
    expect(out.split('**What to do:**')).toHaveLength(2)
    expect(out.split('the controller is running')).toHaveLength(2)
    expect(out).toContain('- ResolvedRefs was written for generation 3')
  })

  it('says nothing twice: every heading, explanation and evidence line of the gate report is unique', () => {
    const said = renderSummary(gateReport())
      .split('\n')
      .filter((line) => line.length > 30 && !/^(\| |<)/.test(line))
    expect(said.length).toBeGreaterThan(15)
    expect(said.filter((line, i) => said.indexOf(line) !== i)).toEqual([])
  })
})

// Every problem of every report fixture and snapshot dump, rendered as text, markdown and JSON: no
// missing value is printed, no parent carries the same remediation twice, and no sentence repeats
// within a remediation. The rules hold for whatever the fixtures grow to hold.
import { readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parseSettings } from '../../../src/inputs/parse.ts'
import type { Problem, Report } from '../../../src/model/types.ts'
import { renderJson } from '../../../src/report/json.ts'
import { renderSummary } from '../../../src/report/summary.ts'
import { renderText } from '../../../src/report/terminal.ts'
import { runSnapshot } from '../../../src/jobs/snapshot.ts'
import { gateReport, hostileReport } from '../../fixtures/report/reports.ts'

const DUMPS = 'test/fixtures/snapshot'

async function dumpReport(file: string): Promise<Report> {
  const values: Record<string, string> = {
    'from-file': `${DUMPS}/${file}`,
    'all-namespaces': 'true'
  }
  return runSnapshot(
    parseSettings((name) => values[name], 'gate'),
    process.cwd()
  )
}

async function reports(): Promise<[string, Report][]> {
  const dumps = readdirSync(DUMPS).filter((f) => f.endsWith('.yaml'))
  const fromDumps = await Promise.all(
    dumps.map(async (f): Promise<[string, Report]> => [f, await dumpReport(f)])
  )
  return [['gateReport', gateReport()], ['hostileReport', hostileReport()], ...fromDumps]
}

const MISSING = /\b(undefined|null|NaN)\b/

/** Every string value in a parsed JSON document. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (Array.isArray(value)) return value.flatMap(strings)
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(strings)
  return []
}

function parentProblems(report: Report): Problem[][] {
  return report.routes.flatMap((r) => [
    ...(r.problems ? [r.problems] : []),
    ...r.parents.map((p) => p.problems)
  ])
}

describe('advice sweep over every fixture', () => {
  it('holds at least the dumps and the report fixtures', async () => {
    expect((await reports()).length).toBeGreaterThanOrEqual(6)
  })

  it('prints no missing value in text, markdown or JSON', async () => {
    for (const [name, report] of await reports()) {
      for (const problem of parentProblems(report).flat()) {
        const said = [problem.title, problem.remediation, ...(problem.evidence ?? [])]
        for (const s of said) expect(s, `${name}: ${s}`).not.toMatch(MISSING)
      }
      expect(renderText(report, { color: false }), name).not.toMatch(MISSING)
      expect(renderSummary(report), name).not.toMatch(MISSING)
      // JSON may hold null as a value (controllerName of an entry no controller wrote), never as text
      for (const s of strings(JSON.parse(renderJson(report))))
        expect(s, `${name}: ${s}`).not.toMatch(MISSING)
    }
  })

  it('no parent carries the same remediation twice, and no remediation repeats a sentence', async () => {
    for (const [name, report] of await reports()) {
      for (const problems of parentProblems(report)) {
        const remediations = problems.map((p) => p.remediation)
        expect(new Set(remediations).size, `${name}: ${remediations.join(' | ')}`).toBe(
          remediations.length
        )
        for (const r of remediations) {
          const sentences = r.split(/(?<=[.!?])\s+(?=[A-Z])/)
          expect(new Set(sentences).size, `${name}: ${r}`).toBe(sentences.length)
        }
      }
    }
  })

  it('a dump Route without metadata.namespace takes the default namespace and is no proof for itself', async () => {
    const report = await dumpReport('unnamespaced-refused.yaml')
    const stale = report.routes.find((r) => r.name === 'stale')
    expect(stale?.namespace).toBe('default')
    const remediation = stale?.parents[0]?.problems[0]?.remediation ?? ''
    expect(remediation).toContain('it wrote current status for HTTPRoute default/refused')
    expect(remediation).not.toContain('HTTPRoute default/stale')
    const refused = report.routes.find((r) => r.name === 'refused')
    expect(refused?.parents[0]?.problems[0]?.title).toMatch(
      /^Gateway default\/edge: listener odd was refused by Traefik \(traefik.io\/gateway-controller\): Accepted=False \(PortUnavailable\)/
    )
    expect(refused?.parents[0]?.problems[0]?.remediation).toMatch(
      /^Expose port 8081 on the controller \(for Traefik, an entryPoint on port 8081\)/
    )
  })
})

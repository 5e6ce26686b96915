import { describe, expect, it } from 'vitest'
import type { Report, RouteResult } from '../../../src/model/types.ts'
import { renderJson, reportForOutput } from '../../../src/report/json.ts'
import { failedRoute, gateReport, notAllowed, readyRoute } from '../../fixtures/report/reports.ts'
import { expectValidReport } from '../../helpers/schema.ts'

interface CutReport extends Report {
  truncated?: boolean
  omittedRoutes?: number
}

function parse(json: string): CutReport {
  const report = JSON.parse(json) as CutReport
  expectValidReport(report)
  return report
}

/** Ready Routes with heavy evidence, and failed Routes: the shape that shows the cutting order. */
function mixedReport(ready: number, failed: number): Report {
  const heavy = (route: RouteResult): RouteResult => ({
    ...route,
    parents: route.parents.map((parent) => ({
      ...parent,
      problems: [{ ...notAllowed, severity: 'warning', evidence: ['e'.repeat(2000)] }]
    }))
  })
  const routes = [
    ...Array.from({ length: ready }, (_, i) => heavy(readyRoute(`ready-${i}`))),
    ...Array.from({ length: failed }, (_, i) => failedRoute(`failed-${i}`))
  ]
  return {
    schemaVersion: 1,
    mode: 'gate',
    verdict: 'failed',
    counts: { routes: ready + failed, ready, failed, pending: 0 },
    routes,
    notes: ['a note']
  }
}

describe('renderJson', () => {
  it('prints the whole report as indented JSON that matches the schema', () => {
    const json = renderJson(gateReport())
    expect(json).toContain('\n  "schemaVersion": 1,')
    expect(parse(json)).toEqual(gateReport())
  })
})

describe('reportForOutput', () => {
  it('returns the whole report as compact JSON when it fits', () => {
    const report = gateReport()
    const json = reportForOutput(report, 1_000_000)
    expect(json).toBe(JSON.stringify(report))
    expect(parse(json).truncated).toBeUndefined()
  })

  it('first drops evidence, fix and messages of ready Routes', () => {
    const report = mixedReport(5, 2)
    const json = reportForOutput(report, JSON.stringify(report).length - 100)
    const cut = parse(json)
    expect(cut.truncated).toBe(true)
    expect(cut.routes).toHaveLength(7)
    expect(cut.omittedRoutes).toBeUndefined()
    const readyProblem = cut.routes[0]?.parents[0]?.problems[0]
    expect(readyProblem).toMatchObject({ reason: 'NotAllowedByListeners', title: notAllowed.title })
    expect(readyProblem?.evidence).toBeUndefined()
    expect(cut.routes[0]?.parents[0]?.conditions).toBeUndefined()
    // failed Routes keep every detail
    expect(cut.routes[5]).toEqual(report.routes[5])
  })

  it('then drops ready Routes, keeping every failure whole', () => {
    const report = mixedReport(200, 3)
    const cut = parse(reportForOutput(report, 8000))
    expect(cut.routes.map((r) => r.name)).toEqual(['failed-0', 'failed-1', 'failed-2'])
    expect(cut.routes).toEqual(report.routes.slice(200))
    expect(cut.omittedRoutes).toBe(200)
    expect(cut.counts).toEqual(report.counts)
  })

  it('then drops failures from the end, pending before failed, and stays within maxChars', () => {
    const pending: RouteResult = { ...failedRoute('pending-0'), verdict: 'pending' }
    const report: Report = {
      ...mixedReport(0, 0),
      routes: [...Array.from({ length: 500 }, (_, i) => failedRoute(`failed-${i}`)), pending],
      counts: { routes: 501, ready: 0, failed: 500, pending: 1 }
    }
    for (const max of [50_000, 20_000, 5000, 1500]) {
      const json = reportForOutput(report, max)
      expect(json.length).toBeLessThanOrEqual(max)
      const cut = parse(json)
      expect(cut.truncated).toBe(true)
      expect(cut.routes.map((r) => r.name)).not.toContain('pending-0')
      expect(cut.routes[0]?.name).toBe('failed-0')
      expect(cut.omittedRoutes).toBe(501 - cut.routes.length)
    }
  })

  it('handles 5,000 Routes within the 1 MB output limit', () => {
    const report = mixedReport(2500, 2500)
    const json = reportForOutput(report, 1_000_000)
    expect(json.length).toBeLessThanOrEqual(1_000_000)
    const cut = parse(json)
    // not even the failures all fit: ready Routes went first, then failures from the end
    expect(cut.routes.length).toBeGreaterThan(1000)
    expect(cut.routes.length).toBeLessThan(2500)
    expect(cut.routes.every((route) => route.verdict === 'failed')).toBe(true)
    expect(cut.routes[0]?.name).toBe('failed-0')
    expect(cut.omittedRoutes).toBe(5000 - cut.routes.length)
  })

  it('falls back to the bare verdict when nothing else fits, still valid', () => {
    const report = { ...mixedReport(3, 3), tool: { name: 'route-gate', version: '0.1.0' } }
    const cut = parse(reportForOutput(report, 10))
    expect(cut).toEqual({
      schemaVersion: 1,
      mode: 'gate',
      verdict: 'failed',
      counts: report.counts,
      routes: [],
      omittedRoutes: 6,
      truncated: true
    })
  })
})

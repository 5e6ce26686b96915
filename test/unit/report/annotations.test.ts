import { describe, expect, it } from 'vitest'
import type { Report, RouteResult } from '../../../src/model/types.ts'
import { buildAnnotations } from '../../../src/report/annotations.ts'
import { expectNoControl, expectNoWorkflowCommand } from '../../fixtures/report/inert.ts'
import {
  failedRoute,
  gateReport,
  hostileReport,
  readyRoute
} from '../../fixtures/report/reports.ts'

function pendingRoute(name: string): RouteResult {
  const base = readyRoute(name)
  return {
    ...base,
    verdict: 'pending',
    parents: [
      {
        ...base.parents[0]!,
        verdict: 'pending',
        conditions: [],
        problems: [
          {
            reason: 'NoStatus',
            severity: 'warning',
            title: 'No controller has written status yet',
            remediation: 'Wait, or check that the Gateway controller runs.'
          }
        ]
      }
    ]
  }
}

function reportOf(routes: RouteResult[]): Report {
  return { ...gateReport(), routes }
}

describe('buildAnnotations', () => {
  it('gives one error per failed Route at its manifest line, then warnings', () => {
    const annotations = buildAnnotations(gateReport())
    expect(annotations.map((a) => [a.level, a.title])).toEqual([
      ['error', 'HTTPRoute shop/web is not ready: failed'],
      ['error', 'HTTPRoute shop/checkout is not ready: failed'],
      ['error', 'GRPCRoute shop/orphan is not ready: failed'],
      ['warning', 'HTTPRoute shop/mirror is ready, with warnings']
    ])
    expect(annotations[0]).toMatchObject({ file: 'deploy/routes.yaml', startLine: 12 })
    expect(annotations[2]?.file).toBeUndefined()
  })

  it('says per parent what is wrong, what the controller said and what to do', () => {
    const [, checkout] = buildAnnotations(gateReport())
    expect(checkout?.message.split('\n')).toEqual([
      'parent infra/edge (failed): backendRef to Service payments/api is not permitted (ResolvedRefs / RefNotPermitted)',
      '  controller says: backendRef payments/api not permitted by any ReferenceGrant',
      '  what to do: Create a ReferenceGrant in namespace payments that allows HTTPRoutes from namespace shop.',
      'parent infra/internal (failed): No controller has written status for parent infra/internal (NoStatus)',
      '  what to do: Gateway infra/internal does not exist. Did you mean infra/internal-gw? Fix parentRefs[1].name.'
    ])
  })

  it('puts pending Routes after the failures, as warnings', () => {
    const annotations = buildAnnotations(reportOf([pendingRoute('slow'), failedRoute('web')]))
    expect(annotations.map((a) => a.level)).toEqual(['error', 'warning'])
    expect(annotations[1]?.title).toBe('HTTPRoute shop/slow is not ready yet: pending')
  })

  it('keeps to 10 errors: the 10th says how many more failed and points at the summary', () => {
    const routes = Array.from({ length: 15 }, (_, i) => failedRoute(`web-${i}`))
    const annotations = buildAnnotations(reportOf(routes))
    expect(annotations).toHaveLength(10)
    expect(annotations.slice(0, 9).map((a) => a.title)).toEqual(
      routes.slice(0, 9).map((r) => `HTTPRoute shop/${r.name} is not ready: failed`)
    )
    const last = annotations[9]!
    expect(last.level).toBe('error')
    expect(last.title).toBe('6 more failed Routes')
    expect(last.message).toContain('and 6 more failed Routes: see the job summary.')
    expect(last.message).toContain('HTTPRoute shop/web-9, HTTPRoute shop/web-10')
    expect(last.file).toBeUndefined()
  })

  it('caps warnings separately and honours a custom max', () => {
    const routes = [
      ...Array.from({ length: 4 }, (_, i) => failedRoute(`web-${i}`)),
      ...Array.from({ length: 4 }, (_, i) => pendingRoute(`slow-${i}`))
    ]
    const annotations = buildAnnotations(reportOf(routes), { max: 3 })
    expect(annotations.map((a) => a.level)).toEqual([
      'error',
      'error',
      'error',
      'warning',
      'warning',
      'warning'
    ])
    expect(annotations[2]?.title).toBe('2 more failed Routes')
    expect(annotations[5]?.title).toBe('2 more Routes pending or with warnings')
  })

  it('gives nothing for a run where every Route is ready without warnings', () => {
    expect(buildAnnotations(reportOf([readyRoute('a'), readyRoute('b')]))).toEqual([])
  })

  it('makes hostile text harmless: no workflow command, no control characters, bounded length', () => {
    const [annotation] = buildAnnotations(hostileReport())
    expect(annotation).toBeDefined()
    const { title, message, file } = annotation!
    expect(title).not.toContain('\n')
    expect(title.length).toBeLessThanOrEqual(200)
    expect(message.length).toBeLessThanOrEqual(4000)
    for (const text of [title, message, file ?? '']) {
      expectNoWorkflowCommand(text)
      expectNoControl(text)
    }
    expect(message).toContain('\u2236:error::injected')
    expect(file).toBe('\u2236:error::f.yaml')
  })
})

import { describe, expect, it } from 'vitest'
import { buildReport, routeId } from '../../../src/model/report.ts'
import type { RouteResult, Verdict } from '../../../src/model/types.ts'
import { expectValidReport } from '../../helpers/schema.ts'

function result(
  kind: RouteResult['kind'],
  namespace: string,
  name: string,
  verdict: Verdict
): RouteResult {
  return {
    kind,
    apiVersion: 'gateway.networking.k8s.io/v1',
    namespace,
    name,
    generation: 3,
    verdict,
    parents: [
      {
        parentRef: {
          group: 'gateway.networking.k8s.io',
          kind: 'Gateway',
          namespace: 'infra',
          name: 'edge'
        },
        verdict,
        controllerName:
          verdict === 'pending' ? null : 'gateway.envoyproxy.io/gatewayclass-controller',
        conditions: [
          {
            type: 'Accepted',
            status: 'True',
            reason: 'Accepted',
            observedGeneration: 3,
            fresh: true
          }
        ],
        problems:
          verdict === 'ready'
            ? []
            : [
                {
                  reason: 'NoStatus',
                  severity: 'warning',
                  title: 'No status for this parent',
                  remediation: 'Check the Gateway.'
                }
              ]
      }
    ]
  }
}

describe('routeId', () => {
  it('names a Route by kind, namespace and name', () => {
    expect(routeId({ kind: 'HTTPRoute', namespace: 'shop', name: 'web' })).toBe(
      'HTTPRoute shop/web'
    )
  })
})

describe('buildReport', () => {
  const routes = [
    result('HTTPRoute', 'shop', 'web', 'ready'),
    result('TCPRoute', 'db', 'pg', 'pending'),
    result('HTTPRoute', 'shop', 'api', 'failed'),
    result('GRPCRoute', 'shop', 'rpc', 'failed'),
    result('HTTPRoute', 'alpha', 'web', 'ready')
  ]

  it('counts, combines and orders failed, pending, ready, then kind/namespace/name', () => {
    const report = buildReport({
      mode: 'gate',
      routes,
      toolVersion: '0.1.0',
      startedAt: new Date('2026-11-20T10:00:00.000Z'),
      finishedAt: new Date('2026-11-20T10:00:42.500Z'),
      timedOut: true,
      notes: ['observedGeneration absent', 'observedGeneration absent', 'other']
    })
    expect(report).toMatchObject({
      schemaVersion: 1,
      tool: { name: 'route-gate', version: '0.1.0' },
      mode: 'gate',
      verdict: 'failed',
      counts: { routes: 5, ready: 2, failed: 2, pending: 1 },
      startedAt: '2026-11-20T10:00:00.000Z',
      finishedAt: '2026-11-20T10:00:42.500Z',
      elapsedMs: 42_500,
      timedOut: true,
      notes: ['observedGeneration absent', 'other']
    })
    expect(report.routes.map(routeId)).toEqual([
      'GRPCRoute shop/rpc',
      'HTTPRoute shop/api',
      'TCPRoute db/pg',
      'HTTPRoute alpha/web',
      'HTTPRoute shop/web'
    ])
    expect(routes[0]!.name).toBe('web') // the input is not reordered
    expectValidReport(report)
  })

  it('is ready with no Routes and leaves out what it was not given', () => {
    const report = buildReport({ mode: 'snapshot', routes: [], toolVersion: '0.1.0' })
    expect(report).toEqual({
      schemaVersion: 1,
      tool: { name: 'route-gate', version: '0.1.0' },
      mode: 'snapshot',
      verdict: 'ready',
      counts: { routes: 0, ready: 0, failed: 0, pending: 0 },
      routes: []
    })
    expectValidReport(report)
  })

  it('is pending when nothing failed, and carries monitor transitions', () => {
    const report = buildReport({
      mode: 'monitor',
      routes: routes.filter((r) => r.verdict !== 'failed'),
      toolVersion: '0.1.0',
      transitions: [
        { kind: 'HTTPRoute', namespace: 'shop', name: 'web', from: 'failed', to: 'ready' }
      ]
    })
    expect(report.verdict).toBe('pending')
    expect(report.transitions).toHaveLength(1)
    expectValidReport(report)
  })
})

describe('expectValidReport', () => {
  it('rejects a report that breaks the contract', () => {
    const report = buildReport({
      mode: 'gate',
      routes: [result('HTTPRoute', 'shop', 'web', 'ready')],
      toolVersion: '1'
    })
    const broken = {
      ...report,
      verdict: 'green',
      routes: [{ ...report.routes[0], kind: 'Ingress' }]
    }
    expect(() => expectValidReport(broken)).toThrow(/verdict|kind/)
    expect(() => expectValidReport({ ...report, startedAt: 'yesterday' })).toThrow(/date-time/)
  })
})

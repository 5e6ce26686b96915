import { describe, expect, it } from 'vitest'
import type { Finding, ParentVerdict, RouteVerdict, Verdict } from '../../../src/model/types.ts'
import { ProgressLog } from '../../../src/report/progress.ts'
import { expectNoControl, expectNoWorkflowCommand } from '../../fixtures/report/inert.ts'

const finding = (reason: string): Finding => ({ reason, severity: 'error' })

function parent(name: string, verdict: Verdict, reasons: string[] = []): ParentVerdict {
  return {
    parentRef: { group: 'gateway.networking.k8s.io', kind: 'Gateway', namespace: 'infra', name },
    verdict,
    controllerName: null,
    conditions: [],
    findings: reasons.map(finding),
    otherControllers: []
  }
}

function route(name: string, parents: ParentVerdict[], findings: Finding[] = []): RouteVerdict {
  const verdict: Verdict = parents.some((p) => p.verdict === 'failed')
    ? 'failed'
    : parents.some((p) => p.verdict === 'pending')
      ? 'pending'
      : 'ready'
  return {
    route: {
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'HTTPRoute',
      metadata: { name, namespace: 'shop', generation: 1 }
    },
    verdict: findings.length > 0 ? 'failed' : verdict,
    parents,
    findings,
    orphans: [],
    notes: []
  }
}

describe('ProgressLog', () => {
  it('logs each parent on first sight, then only its changes, with the time since the start', () => {
    const log = new ProgressLog(1000)
    expect(log.update([route('web', [parent('edge', 'pending', ['NoStatus'])])], 1500)).toEqual([
      'HTTPRoute shop/web: parent infra/edge pending (NoStatus)'
    ])
    expect(log.update([route('web', [parent('edge', 'pending', ['NoStatus'])])], 3000)).toEqual([])
    expect(log.update([route('web', [parent('edge', 'ready')])], 5200)).toEqual([
      'HTTPRoute shop/web: parent infra/edge pending (NoStatus) → ready after 4.2s'
    ])
  })

  it('counts a new first reason as a change even when the verdict stays', () => {
    const log = new ProgressLog(0)
    log.update([route('web', [parent('edge', 'pending', ['NoStatus'])])], 0)
    expect(
      log.update([route('web', [parent('edge', 'pending', ['StaleStatus', 'NoStatus'])])], 2000)
    ).toEqual([
      'HTTPRoute shop/web: parent infra/edge pending (NoStatus) → pending (StaleStatus) after 2.0s'
    ])
  })

  it('tracks every parent of every Route on its own', () => {
    const log = new ProgressLog(0)
    const lines = log.update(
      [
        route('web', [
          parent('edge', 'ready'),
          parent('internal', 'failed', ['NotAllowedByListeners'])
        ]),
        route('api', [parent('edge', 'pending', ['ConditionMissing'])])
      ],
      0
    )
    expect(lines).toEqual([
      'HTTPRoute shop/web: parent infra/edge ready',
      'HTTPRoute shop/web: parent infra/internal failed (NotAllowedByListeners)',
      'HTTPRoute shop/api: parent infra/edge pending (ConditionMissing)'
    ])
    expect(
      log.update(
        [
          route('web', [parent('edge', 'ready'), parent('internal', 'ready')]),
          route('api', [parent('edge', 'pending', ['ConditionMissing'])])
        ],
        61_000
      )
    ).toEqual([
      'HTTPRoute shop/web: parent infra/internal failed (NotAllowedByListeners) → ready after 1m 1s'
    ])
  })

  it('logs a Route without parents by its own findings', () => {
    const log = new ProgressLog(0)
    expect(log.update([route('lonely', [], [finding('NoParentRefs')])], 0)).toEqual([
      'HTTPRoute shop/lonely: failed (NoParentRefs)'
    ])
  })

  it('keeps cluster text in a line from acting as a workflow command or a terminal escape', () => {
    const log = new ProgressLog(0)
    const [line] = log.update(
      [route('web', [parent('edge', 'failed', ['\u001b[31mBad\n::error::injected\u0007'])])],
      0
    )
    expect(line).toBe('HTTPRoute shop/web: parent infra/edge failed (Bad \u2236:error::injected)')
    expectNoWorkflowCommand(line!)
    expectNoControl(line!)
  })
})

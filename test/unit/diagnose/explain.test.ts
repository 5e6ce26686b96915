import { describe, expect, it } from 'vitest'
import { explainRoute } from '../../../src/diagnose/explain.ts'
import type { Condition, Finding } from '../../../src/model/types.ts'
import {
  MODES,
  baseWorld,
  ref,
  route,
  routeVerdict,
  severityIn,
  verdictIn
} from '../../fixtures/diagnose/world.ts'
import { fixText } from '../../helpers/fixes.ts'

describe('explainRoute', () => {
  it('carries the Route identity, verdicts, conditions, source and orphans into the RouteResult', () => {
    const conditions: Condition[] = [
      { type: 'Accepted', status: 'True', reason: 'Accepted', observedGeneration: 2, fresh: true }
    ]
    const orphan = {
      parentRef: { name: 'old' },
      controllerName: 'istio.io/gateway-controller',
      conditions: []
    }
    const verdict = routeVerdict(route({}), [{ parentRef: ref('web'), conditions }], {
      orphans: [orphan]
    })
    const result = explainRoute(verdict, baseWorld(), {
      source: { file: 'deploy/route.yaml', line: 12 }
    })
    expect(result).toEqual({
      kind: 'HTTPRoute',
      apiVersion: 'gateway.networking.k8s.io/v1',
      namespace: 'shop',
      name: 'storefront',
      generation: 2,
      verdict: 'ready',
      source: { file: 'deploy/route.yaml', line: 12 },
      parents: [
        {
          parentRef: ref('web'),
          verdict: 'ready',
          controllerName: 'istio.io/gateway-controller',
          conditions,
          problems: []
        }
      ],
      orphans: [orphan]
    })
  })

  it('keeps one problem per finding, in order, with titles on one line', () => {
    const findings: Finding[] = [
      {
        condition: 'ResolvedRefs',
        reason: 'InvalidBackendFilters',
        severity: 'error',
        message: 'line one\nline two',
        controllerName: 'gateway.envoyproxy.io/gatewayclass-controller'
      },
      {
        condition: 'ResolvedRefs',
        reason: 'UnsupportedValue',
        severity: 'error',
        message: 'line one\nline two',
        controllerName: 'gateway.envoyproxy.io/gatewayclass-controller'
      }
    ]
    const verdict = routeVerdict(
      route({ rules: [{ backendRefs: [{ name: 'cart', port: 8080 }] }] }),
      [
        {
          parentRef: ref('web'),
          finding: findings,
          controllerName: 'gateway.envoyproxy.io/gatewayclass-controller'
        }
      ]
    )
    const problems =
      explainRoute(verdict, baseWorld('eg', 'gateway.envoyproxy.io/gatewayclass-controller'))
        .parents[0]?.problems ?? []
    expect(problems.map((p) => p.reason)).toEqual(['InvalidBackendFilters', 'UnsupportedValue'])
    expect(problems.every((p) => !/[\n\r]/.test(p.title) && !/[\n\r]/.test(p.remediation))).toBe(
      true
    )
    expect(problems[0]?.message).toBe('line one\nline two')
  })
})

describe.each(MODES)('route-level and synthetic findings (%s mode)', (mode) => {
  it('explains NoParentRefs with the Gateways that exist and a parentRefs snippet', () => {
    const verdict = routeVerdict(route({}), [], {
      verdict: 'failed',
      findings: [{ reason: 'NoParentRefs', severity: 'error' }]
    })
    const result = explainRoute(verdict, baseWorld())
    expect(result.problems?.[0]).toMatchObject({
      reason: 'NoParentRefs',
      title: 'The Route has no parentRefs, so nothing serves it'
    })
    expect(result.problems?.[0]?.evidence).toEqual([
      'Gateways that exist: infra/web and infra/internal.'
    ])
    // two Gateways: which one should serve the Route is the author's choice, so no object
    expect(fixText(result.problems?.[0])).toBeUndefined()
  })

  it('explains Terminating with the deletion time and the finalizers that hold the Route', () => {
    const verdict = routeVerdict(route({}), [], {
      verdict: 'failed',
      findings: [
        {
          reason: 'Terminating',
          severity: 'error',
          deletionTimestamp: '2026-11-20T11:00:00Z',
          finalizers: ['example.com/cleanup', 'example.com/audit']
        }
      ]
    })
    const problem = explainRoute(verdict, baseWorld()).problems?.[0]
    expect(problem).toMatchObject({
      reason: 'Terminating',
      severity: 'error',
      title: 'HTTPRoute shop/storefront is being deleted'
    })
    expect(problem?.evidence).toEqual([
      'metadata.deletionTimestamp is 2026-11-20T11:00:00Z: deletion of HTTPRoute shop/storefront was requested and the API server is removing it.',
      'Finalizers still hold it: example.com/cleanup and example.com/audit.'
    ])
    expect(problem?.remediation).toContain(
      'Each finalizer is removed by the controller that set it'
    )
  })

  it("carries the pending problems of a parent with the mode's severity, so a dump explains itself", () => {
    const conditions: Condition[] = [
      { type: 'Accepted', status: 'True', reason: 'Accepted', observedGeneration: 2, fresh: true },
      {
        type: 'ResolvedRefs',
        status: 'Unknown',
        reason: 'Pending',
        message: 'resolving',
        observedGeneration: 2,
        fresh: true
      }
    ]
    const finding: Finding = {
      condition: 'ResolvedRefs',
      reason: 'ConditionUnknown',
      severity: severityIn(mode),
      message: 'resolving',
      conditionReason: 'Pending'
    }
    const verdict = routeVerdict(route({}), [
      { parentRef: ref('web'), conditions, finding, verdict: verdictIn(mode) }
    ])
    const result = explainRoute(verdict, baseWorld())
    const problem = result.parents[0]?.problems[0]
    expect(result.parents[0]?.verdict).toBe(verdictIn(mode))
    expect(problem).toMatchObject({
      reason: 'ConditionUnknown',
      severity: severityIn(mode),
      title:
        'ResolvedRefs is Unknown (Pending): Istio (istio.io/gateway-controller) has not decided yet'
    })
    expect(problem?.evidence).toEqual([
      'Istio (istio.io/gateway-controller) wrote: Accepted=True (Accepted); ResolvedRefs=Unknown (Pending): resolving.'
    ])
  })

  it('explains a missing condition with what the controller did write', () => {
    const finding: Finding = {
      condition: 'ResolvedRefs',
      reason: 'ConditionMissing',
      severity: severityIn(mode)
    }
    const verdict = routeVerdict(route({}), [
      {
        parentRef: ref('web'),
        finding,
        conditions: [{ type: 'Accepted', status: 'True', reason: 'Accepted' }],
        controllerName: 'konghq.com/kic-gateway-controller'
      }
    ])
    const problem = explainRoute(verdict, baseWorld('kong', 'konghq.com/kic-gateway-controller'))
      .parents[0]?.problems[0]
    // ResolvedRefs is required by the spec: never advise dropping it from the conditions input
    expect(problem?.remediation).toBe(
      'Gateway API requires every implementation to write ResolvedRefs on each parent: Kong Ingress Controller (konghq.com/kic-gateway-controller) has not finished processing this HTTPRoute, or does not support it. Read its logs for this HTTPRoute and check that it supports HTTPRoute.'
    )
    expect(problem?.remediation).not.toMatch(/drop|remove/)
    expect(problem?.title).toBe(
      'Kong Ingress Controller (konghq.com/kic-gateway-controller) wrote no ResolvedRefs condition'
    )
    expect(problem?.evidence?.[0]).toBe(
      'Kong Ingress Controller (konghq.com/kic-gateway-controller) wrote: Accepted=True (Accepted).'
    )
  })

  it('shows an implementation condition that is False as the evidence that matters for a missing one', () => {
    const finding: Finding = {
      condition: 'Accepted',
      reason: 'ConditionMissing',
      severity: severityIn(mode)
    }
    const verdict = routeVerdict(route({}), [
      {
        parentRef: ref('web'),
        finding,
        conditions: [
          {
            type: 'Reconciled',
            status: 'False',
            reason: 'SyncFailed',
            message: 'plugin x not found'
          }
        ],
        controllerName: 'konghq.com/kic-gateway-controller'
      }
    ])
    const problem = explainRoute(verdict, baseWorld('kong', 'konghq.com/kic-gateway-controller'))
      .parents[0]?.problems[0]
    expect(problem?.title).toBe(
      'Kong Ingress Controller (konghq.com/kic-gateway-controller) wrote no Accepted condition; it reports Reconciled=False (SyncFailed)'
    )
    expect(problem?.evidence?.[0]).toBe(
      'Kong Ingress Controller (konghq.com/kic-gateway-controller) reports Reconciled=False (SyncFailed): plugin x not found.'
    )
    expect(problem?.remediation).toBe(
      'Fix what Reconciled=False says ("plugin x not found"); Kong Ingress Controller (konghq.com/kic-gateway-controller) writes Accepted once it has processed the HTTPRoute.'
    )
    expect(problem?.remediation).not.toMatch(/drop|remove/)
  })
})

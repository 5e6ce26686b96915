// A Route being deleted: the evidence says when deletion was asked for and what still holds it; the
// remediation sends the reader to the controller of a finalizer only when one holds the Route.
import { describe, expect, it } from 'vitest'
import { explainTerminating } from '../../../src/diagnose/terminating.ts'
import type { Finding } from '../../../src/model/types.ts'
import { baseWorld, route } from '../../fixtures/diagnose/world.ts'

const explain = (extra: Partial<Finding>) =>
  explainTerminating({
    route: route({}, 'GRPCRoute', 'payments-api'),
    world: baseWorld(),
    finding: {
      reason: 'Terminating',
      severity: 'error',
      deletionTimestamp: '2026-11-20T11:00:00Z',
      ...extra
    }
  })

describe('explainTerminating', () => {
  it('names the finalizers that hold the Route and the controller that must remove them', () => {
    const d = explain({ finalizers: ['gateway.example.com/cleanup'] })
    expect(d.title).toBe('GRPCRoute shop/payments-api is being deleted')
    expect(d.evidence).toEqual([
      'metadata.deletionTimestamp is 2026-11-20T11:00:00Z: deletion of GRPCRoute shop/payments-api was requested and the API server is removing it.',
      'Finalizers still hold it: gateway.example.com/cleanup.'
    ])
    expect(d.remediation).toContain('re-create it once it is gone')
    expect(d.remediation).toContain('if deletion stays stuck, check that controller')
  })

  it.each([
    ['an empty finalizer list', { finalizers: [] }],
    ['no finalizer list at all', {}]
  ])('with %s, says nothing holds it and does not send the reader to a controller', (_, extra) => {
    const d = explain(extra)
    expect(d.evidence).toHaveLength(2)
    expect(d.evidence[1]).toMatch(/^No finalizer holds it any more/)
    expect(d.evidence.join(' ')).not.toContain('Finalizers still hold it')
    expect(d.remediation).toContain('re-create it once it is gone')
    expect(d.remediation).not.toContain('finalizer')
    expect(d.remediation).toMatch(/re-create it once it is gone if it should stay\.$/)
  })
})

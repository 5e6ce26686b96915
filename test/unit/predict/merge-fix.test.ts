// Fixes of one object are made together: each change kept, a field both change differently refused.
import { describe, expect, it } from 'vitest'
import { mergeChanges } from '../../../src/predict/merge-fix.ts'
import type { KubeObject } from '../../../src/model/types.ts'

const ns = (labels: Record<string, string>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name: 'shop', labels }
})

const gw = (http: unknown, https: unknown): KubeObject => ({
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'Gateway',
  metadata: { name: 'edge', namespace: 'infra' },
  spec: {
    listeners: [
      { name: 'http', allowedRoutes: http },
      { name: 'https', allowedRoutes: https }
    ]
  }
})

describe('mergeChanges', () => {
  it('keeps the labels two fixes add to one namespace', () => {
    const before = ns({ a: '1' })
    expect(mergeChanges(before, [ns({ a: '1', b: '2' }), ns({ a: '1', c: '3' })])).toEqual(
      ns({ a: '1', b: '2', c: '3' })
    )
  })

  it('changes two listeners of one Gateway, each as its fix wrote it', () => {
    const same = { namespaces: { from: 'Same' } }
    const all = { namespaces: { from: 'All' } }
    expect(mergeChanges(gw(same, same), [gw(all, same), gw(same, all)])).toEqual(gw(all, all))
  })

  it('joins what two grants of one name let in', () => {
    const grant = (to: unknown[]): KubeObject => ({
      apiVersion: 'gateway.networking.k8s.io/v1beta1',
      kind: 'ReferenceGrant',
      metadata: { name: 'g', namespace: 'payments' },
      spec: { to }
    })
    const a = { group: '', kind: 'Service', name: 'a' }
    const b = { group: '', kind: 'Service', name: 'b' }
    expect(mergeChanges(undefined, [grant([a]), grant([b])])).toEqual(grant([a, b]))
  })

  it('refuses two fixes that set one label to different values', () => {
    expect(mergeChanges(ns({}), [ns({ team: 'web' }), ns({ team: 'shop' })])).toBeUndefined()
  })
})

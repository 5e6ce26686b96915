// A dump's clock: the newest timestamp it holds, read from the objects as kubectl writes them.
import { describe, expect, it } from 'vitest'
import { newestTimestamp } from '../../../src/model/clock.ts'
import type { KubeObject } from '../../../src/model/types.ts'

describe('newestTimestamp', () => {
  it('reads conditions, metadata and managedFields, and survives the nulls kubectl writes', () => {
    const objects = [
      {
        apiVersion: 'gateway.networking.k8s.io/v1',
        kind: 'HTTPRoute',
        metadata: {
          name: 'web',
          namespace: 'shop',
          creationTimestamp: null,
          annotations: { note: '2030-01-01T00:00:00Z' },
          managedFields: [{ manager: 'kubectl', time: '2025-03-01T12:00:00Z', fieldsV1: null }]
        },
        spec: { rules: [{ backendRefs: [{ name: 'cart', port: 8080, weight: 1 }] }] },
        status: {
          parents: [
            {
              controllerName: 'projectcontour.io/gateway-controller',
              conditions: [
                { type: 'Accepted', status: 'True', lastTransitionTime: '2025-03-01T13:05:00Z' },
                { type: 'ResolvedRefs', status: 'True', lastTransitionTime: 'not a time' }
              ]
            }
          ]
        }
      }
    ] as unknown as KubeObject[]
    expect(newestTimestamp(objects)?.toISOString()).toBe('2025-03-01T13:05:00.000Z')
  })

  it('reads no clock from a spec: what users wrote there is not a time the cluster kept', () => {
    const route = {
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'HTTPRoute',
      metadata: { name: 'web', namespace: 'shop', creationTimestamp: '2025-03-01T12:00:00Z' },
      spec: { rules: [{ filters: [{ extensionRef: { time: '2031-01-01T00:00:00Z' } }] }] }
    } as KubeObject
    expect(newestTimestamp([route])?.toISOString()).toBe('2025-03-01T12:00:00.000Z')
  })

  it('has no clock for objects without timestamps', () => {
    expect(
      newestTimestamp([{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } }])
    ).toBeUndefined()
  })
})

import { describe, expect, it } from 'vitest'
import { routeShapeError } from '../../../src/model/shape.ts'
import { loadDump, route } from '../../fixtures/model/build.ts'

function withStatus(status: unknown) {
  return { ...route({ parentRefs: [{ name: 'edge' }] }), status }
}

describe('routeShapeError', () => {
  it('accepts real status from every fixture dump', () => {
    for (const file of [
      'envoy-comma-reasons.yaml',
      'partially-invalid.yaml',
      'linkerd-service.yaml'
    ]) {
      for (const r of loadDump(file).routes) expect(routeShapeError(r)).toBeNull()
    }
  })

  it('accepts a Route without spec or status', () => {
    expect(
      routeShapeError({
        apiVersion: 'gateway.networking.k8s.io/v1',
        kind: 'HTTPRoute',
        metadata: { name: 'web' }
      })
    ).toBeNull()
  })

  it.each([
    [{ kind: 'HTTPRoute' }, 'metadata', 'must be an object'],
    [{ kind: 'HTTPRoute', metadata: { namespace: 'shop' } }, 'metadata.name', 'non-empty string'],
    [
      { kind: 'HTTPRoute', metadata: { name: 'w', generation: -1 } },
      'metadata.generation',
      'integer'
    ],
    [{ ...route({}), spec: { parentRefs: { name: 'edge' } } }, 'spec.parentRefs', 'must be a list'],
    [
      { ...route({}), spec: { parentRefs: [{ name: 'edge' }, { namespace: 'x' }] } },
      'spec.parentRefs[1].name',
      'non-empty'
    ],
    [
      { ...route({}), spec: { parentRefs: [{ name: 'edge', port: 70000 }] } },
      'spec.parentRefs[0].port',
      '1 to 65535'
    ],
    [
      { ...route({}), spec: { parentRefs: [{ name: 'edge', port: 0 }] } },
      'spec.parentRefs[0].port',
      'must be an integer from 1 to 65535'
    ],
    [
      { ...route({}), spec: { parentRefs: [{ name: '' }] } },
      'spec.parentRefs[0].name',
      'must be a non-empty string'
    ],
    [
      { ...route({}), spec: { parentRefs: [{ name: 'edge', sectionName: 443 }] } },
      'spec.parentRefs[0].sectionName',
      'must be a string'
    ],
    [
      { kind: 'HTTPRoute', metadata: { name: 'w', generation: 1.5 } },
      'metadata.generation',
      'must be an integer from 0'
    ],
    [withStatus('accepted'), 'status', 'must be an object'],
    [withStatus({ parents: 'edge' }), 'status.parents', 'must be a list'],
    [
      withStatus({ parents: [{ controllerName: 'x' }] }),
      'status.parents[0].parentRef',
      'must be an object'
    ],
    [
      withStatus({
        parents: [
          {
            parentRef: { name: 'edge' },
            conditions: [
              { type: 'Accepted', status: 'True' },
              { type: 'ResolvedRefs', status: 'maybe' }
            ]
          }
        ]
      }),
      'status.parents[0].conditions[1].status',
      'True, False or Unknown, not "maybe"'
    ],
    [
      withStatus({
        parents: [
          {
            parentRef: { name: 'edge' },
            conditions: [{ type: 'Accepted', status: 'True', observedGeneration: '2' }]
          }
        ]
      }),
      'status.parents[0].conditions[0].observedGeneration',
      'integer'
    ],
    [
      withStatus({
        parents: [{ parentRef: { name: 'edge' }, conditions: [{ type: 'Accepted', status: true }] }]
      }),
      'status.parents[0].conditions[0].status',
      'not true'
    ]
  ])('reports %#: %s', (object, field, message) => {
    const error = routeShapeError(object as never)
    expect(error?.field).toBe(field)
    expect(error?.message).toContain(message)
  })

  it('names no upper bound where there is none', () => {
    const error = routeShapeError({
      kind: 'HTTPRoute',
      metadata: { name: 'w', generation: -1 }
    } as never)
    expect(error?.message).toMatch(/must be an integer from 0$/)
  })

  it('accepts the bounds themselves: port 1 and 65535, generation 0', () => {
    for (const port of [1, 65535]) {
      expect(
        routeShapeError({ ...route({}), spec: { parentRefs: [{ name: 'e', port }] } })
      ).toBeNull()
    }
    expect(
      routeShapeError({ kind: 'HTTPRoute', metadata: { name: 'w', generation: 0 } } as never)
    ).toBeNull()
  })
})

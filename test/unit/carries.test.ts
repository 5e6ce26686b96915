// Whether a live object carries a file: the comparison check --manifests waits on, with the server
// defaults of every Route kind of the Gateway API version the test plane serves (v1.6.3).
import { describe, expect, it } from 'vitest'
import { KNOWN_DEFAULTS, defaultsOfSchema } from '../../src/model/api-defaults.ts'
import { firstDifference, lastWriter } from '../../src/model/carries.ts'
import type { KubeObject } from '../../src/model/types.ts'
import { describeDifference } from '../../src/wording/sync.ts'

const ROUTE_KINDS = ['HTTPRoute', 'GRPCRoute', 'TLSRoute', 'TCPRoute', 'UDPRoute']

function object(
  kind: string,
  spec: unknown,
  metadata: Partial<KubeObject['metadata']> = {}
): KubeObject {
  return {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind,
    metadata: { name: 'web', namespace: 'shop', ...metadata },
    spec
  }
}

/** An object holding `value` at a defaults path ("spec.rules[].backendRefs[].weight"), one item per list. */
function at(path: string, value: unknown): Record<string, unknown> {
  const segments = path.split('.').slice(1)
  const build = (i: number): unknown => {
    if (i === segments.length) return value
    const segment = segments[i]!
    const list = segment.endsWith('[]')
    const inner = build(i + 1)
    return { [segment.replace('[]', '')]: list ? [inner] : inner }
  }
  return build(0) as Record<string, unknown>
}

/** `inner` with the leaf taken out: the file that leaves the defaulted field to the server. */
function without(path: string): Record<string, unknown> {
  return at(path, undefined)
}

describe('a live object carrying its file', () => {
  for (const kind of ROUTE_KINDS) {
    const defaults = KNOWN_DEFAULTS.get(kind)!
    it(`${kind}: every defaulted field is no difference when the server wrote its default, and one when it holds another value`, () => {
      expect(defaults.size).toBeGreaterThan(0)
      for (const [path, value] of defaults) {
        const file = object(kind, without(path))
        const live = object(kind, at(path, value))
        expect(firstDifference(file, live, defaults), path).toBeUndefined()
        const other =
          typeof value === 'number'
            ? value + 7
            : typeof value === 'string'
              ? `${value}x`
              : { other: 1 }
        const changed = firstDifference(file, object(kind, at(path, other)), defaults)
        expect(changed, path).toBeDefined()
        expect(changed?.file, path).toBeUndefined()
      }
    })
  }

  it('names the first field that differs, as the heartbeat says it', () => {
    const defaults = KNOWN_DEFAULTS.get('HTTPRoute')
    const file = object('HTTPRoute', { rules: [{ backendRefs: [{ name: 'web-v2', port: 80 }] }] })
    const live = object('HTTPRoute', {
      rules: [
        {
          matches: [{ path: { type: 'PathPrefix', value: '/' } }],
          backendRefs: [{ group: '', kind: 'Service', name: 'web', port: 80, weight: 1 }]
        }
      ]
    })
    expect(describeDifference(firstDifference(file, live, defaults)!)).toBe(
      'spec.rules[0].backendRefs[0].name is web, the file says web-v2'
    )
  })

  it('counts a field the merge removed and a list of another length as differences', () => {
    const defaults = KNOWN_DEFAULTS.get('HTTPRoute')
    const rule = { backendRefs: [{ name: 'web', port: 80 }] }
    const filtered = { ...rule, filters: [{ type: 'RequestHeaderModifier' }] }
    const dropped = firstDifference(
      object('HTTPRoute', { rules: [rule] }),
      object('HTTPRoute', { rules: [filtered] }),
      defaults
    )
    expect(describeDifference(dropped!)).toBe(
      'spec.rules[0].filters is a list of 1 item, the file does not set it'
    )
    const longer = firstDifference(
      object('HTTPRoute', { rules: [rule, rule] }),
      object('HTTPRoute', { rules: [rule] }),
      defaults
    )
    expect(describeDifference(longer!)).toBe(
      'spec.rules is a list of 1 item, the file says a list of 2 items'
    )
    // a kind whose defaults are unknown is compared one way only: the server adds what it likes
    const service = { ...object('Service', { ports: [{ port: 80 }] }), apiVersion: 'v1' }
    const liveService = {
      ...service,
      spec: { clusterIP: '10.0.0.1', ports: [{ port: 80, protocol: 'TCP' }] }
    }
    expect(firstDifference(service, liveService, undefined)).toBeUndefined()
  })

  it('wants the labels and annotations the file sets and leaves the others alone', () => {
    const file = object(
      'HTTPRoute',
      {},
      { labels: { team: 'shop' }, annotations: { 'example.com/rev': 'b' } }
    )
    const live = object(
      'HTTPRoute',
      {},
      { labels: { team: 'shop', extra: 'x' }, annotations: { 'example.com/rev': 'a' } }
    )
    expect(describeDifference(firstDifference(file, live, new Map())!)).toBe(
      'metadata.annotations["example.com/rev"] is a, the file says b'
    )
    expect(
      firstDifference(
        file,
        { ...live, metadata: { ...live.metadata, annotations: { 'example.com/rev': 'b' } } },
        new Map()
      )
    ).toBeUndefined()
  })

  it('reads the defaults of a CRD schema as the table holds them', () => {
    const schema = {
      properties: {
        spec: {
          properties: {
            parentRefs: { items: { properties: { kind: { default: 'Gateway' } } } },
            rules: { default: [{}], items: { properties: { weight: { default: 1 } } } }
          }
        }
      }
    }
    expect([...defaultsOfSchema(schema)]).toEqual([
      ['spec.parentRefs[].kind', 'Gateway'],
      ['spec.rules', [{}]],
      ['spec.rules[].weight', 1]
    ])
  })

  it('names the last writer of the object itself, not of its status', () => {
    const route = object('HTTPRoute', {}, {})
    ;(route.metadata as Record<string, unknown>).managedFields = [
      { manager: 'argocd-controller', operation: 'Apply', time: '2026-12-07T08:00:00Z' },
      {
        manager: 'contour',
        operation: 'Update',
        subresource: 'status',
        time: '2026-12-07T09:00:00Z'
      },
      { manager: 'kubectl-edit', operation: 'Update', time: '2026-12-07T07:00:00Z' }
    ]
    expect(lastWriter(route)).toBe('argocd-controller (Apply, 2026-12-07T08:00:00Z)')
  })
})

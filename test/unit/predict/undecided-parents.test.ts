// Parents the rules alone leave to their controller (a Gateway refused for a reason other than its
// listeners, a ListenerSet no controller accepted), and Services a BackendTLSPolicy covers: unknown,
// unless the other Routes on the very same parentRef show what the controller writes there.
import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../src/model/types.ts'
import {
  CONTOUR,
  EDGE,
  EVERY_KIND,
  condition,
  gateway,
  gatewayClass,
  httpRoute,
  namespace,
  onlyParent,
  run,
  service
} from './fixtures.ts'

const G = 'gateway.networking.k8s.io'
const ALL = { namespaces: { from: 'All' } }

const refusedGateway = (): KubeObject =>
  gateway('infra', 'edge', [{ name: 'http', allowedRoutes: ALL }], {
    status: {
      conditions: [{ type: 'Accepted', status: 'False', reason: 'InvalidParameters' }]
    }
  })

const cluster = (gw: KubeObject): KubeObject[] => [
  gatewayClass('eg', CONTOUR),
  namespace('infra'),
  namespace('app'),
  gw,
  service('app', 'web')
]

/** A Route of the dump with what the controller wrote on its one parent, at its generation. */
function written(name: string, accepted: 'True' | 'False', reason: string): KubeObject {
  return httpRoute(
    'app',
    name,
    { parentRefs: [EDGE] },
    {
      parents: [
        {
          parentRef: { group: G, kind: 'Gateway', ...EDGE },
          controllerName: CONTOUR,
          conditions: [
            { type: 'Accepted', status: accepted, reason, observedGeneration: 1 },
            { type: 'ResolvedRefs', status: 'True', reason: 'ResolvedRefs', observedGeneration: 1 }
          ]
        }
      ]
    }
  )
}

describe('predict: parents the rules leave to the controller', () => {
  it('a Gateway its controller refused: unknown without evidence', () => {
    const report = run(cluster(refusedGateway()), [httpRoute('app', 'new', { parentRefs: [EDGE] })])
    expect(onlyParent(report).verdict).toBe('unknown')
    expect(onlyParent(report).why?.join(' ')).toMatch(/not accepted by its controller/)
  })

  it('the other Routes on the parentRef all refused for the parent: refused the same, naming one', () => {
    const report = run(
      [...cluster(refusedGateway()), written('old', 'False', 'InvalidGateway')],
      [httpRoute('app', 'new', { parentRefs: [EDGE] })]
    )
    expect(onlyParent(report).verdict).toBe('failed')
    expect(condition(report, 'Accepted')?.reason).toBe('InvalidGateway')
    expect(condition(report, 'Accepted')?.message).toContain('HTTPRoute app/old')
  })

  it('a reason about the other Route itself is no evidence; neither is a mixed answer', () => {
    const own = run(
      [...cluster(refusedGateway()), written('old', 'False', 'NoMatchingListenerHostname')],
      [httpRoute('app', 'new', { parentRefs: [EDGE] })]
    )
    expect(onlyParent(own).verdict).toBe('unknown')
    const mixed = run(
      [
        ...cluster(refusedGateway()),
        written('a', 'False', 'InvalidGateway'),
        written('b', 'True', 'Accepted')
      ],
      [httpRoute('app', 'new', { parentRefs: [EDGE] })]
    )
    expect(onlyParent(mixed).verdict).toBe('unknown')
  })

  it('accepted on every other Route there: judged by the rules', () => {
    const report = run(
      [...cluster(refusedGateway()), written('old', 'True', 'Accepted')],
      // a hostname of its own: the old Route holds every path of "*" (Contour's conflict rule)
      [httpRoute('app', 'new', { parentRefs: [EDGE], hostnames: ['new.example.com'] })]
    )
    expect(onlyParent(report).verdict).toBe('ready')
  })

  it('a ListenerSet no controller accepted (Pending) is unknown', () => {
    const listenerSet: KubeObject = {
      apiVersion: `${G}/v1`,
      kind: 'ListenerSet',
      metadata: { name: 'ls', namespace: 'infra' },
      spec: {
        parentRef: { group: G, kind: 'Gateway', name: 'edge' },
        listeners: [{ name: 'extra', port: 8080, protocol: 'HTTP', allowedRoutes: ALL }]
      },
      status: { conditions: [{ type: 'Accepted', status: 'Unknown', reason: 'Pending' }] }
    }
    const gw = gateway('infra', 'edge', [{ name: 'http', allowedRoutes: ALL }], {
      allowedListeners: { namespaces: { from: 'All' } }
    })
    const ref = { group: G, kind: 'ListenerSet', name: 'ls', namespace: 'infra' }
    const report = run(
      [...cluster(gw), listenerSet],
      [httpRoute('app', 'new', { parentRefs: [ref] })]
    )
    expect(onlyParent(report).verdict).toBe('unknown')
    expect(onlyParent(report).why?.join(' ')).toMatch(/ListenerSet infra\/ls is not accepted/)
  })
})

describe('predict: Services a BackendTLSPolicy covers', () => {
  const policy: KubeObject = {
    apiVersion: `${G}/v1`,
    kind: 'BackendTLSPolicy',
    metadata: { name: 'tls', namespace: 'app' },
    spec: {
      targetRefs: [{ group: '', kind: 'Service', name: 'web' }],
      validation: {
        hostname: 'web.example',
        caCertificateRefs: [{ group: '', kind: 'ConfigMap', name: 'ca' }]
      }
    }
  }
  const ok = gateway('infra', 'edge', [{ name: 'http', allowedRoutes: ALL }])

  it('unknown where the source lists every BackendTLSPolicy and one its controller has not judged covers the Service', () => {
    const report = run(
      [...cluster(ok), policy],
      [httpRoute('app', 'new', { parentRefs: [EDGE] })],
      { source: { kind: 'dump', complete: [...EVERY_KIND, 'BackendTLSPolicy'] } }
    )
    expect(onlyParent(report).verdict).toBe('unknown')
    expect(onlyParent(report).why?.join(' ')).toContain(
      'BackendTLSPolicy app/tls covers Service app/web'
    )
  })

  it("the policy's status for this Gateway decides: valid, refused the controller's way, or set aside", () => {
    const ENVOY = 'gateway.envoyproxy.io/gatewayclass-controller'
    const judged = (conditions: Record<string, unknown>[]): KubeObject => ({
      ...policy,
      metadata: { ...policy.metadata, generation: 1 },
      status: {
        ancestors: [
          {
            ancestorRef: { group: G, kind: 'Gateway', name: 'edge', namespace: 'infra' },
            controllerName: ENVOY,
            conditions: conditions.map((c) => ({ observedGeneration: 1, ...c }))
          }
        ]
      }
    })
    const envoy = [
      gatewayClass('eg', ENVOY),
      ...cluster(ok).filter((o) => o.kind !== 'GatewayClass')
    ]
    const listed = {
      source: { kind: 'dump' as const, complete: [...EVERY_KIND, 'BackendTLSPolicy'] }
    }
    const predicted = (p: KubeObject) =>
      run([...envoy, p], [httpRoute('app', 'new', { parentRefs: [EDGE] })], listed)
    const valid = judged([{ type: 'Accepted', status: 'True', reason: 'Accepted' }])
    expect(onlyParent(predicted(valid)).verdict).toBe('ready')
    const invalid = judged([
      { type: 'Accepted', status: 'False', reason: 'NoValidCACertificate' },
      { type: 'ResolvedRefs', status: 'False', reason: 'InvalidCACertificateRef' }
    ])
    const refusedReport = predicted(invalid)
    expect(condition(refusedReport, 'ResolvedRefs')).toMatchObject({
      status: 'False',
      reason: 'InvalidBackendTLS'
    })
    // Traefik writes ResolvedRefs=False beside Conflicted: the policy is set aside, not invalid
    const conflicted = judged([
      { type: 'Accepted', status: 'False', reason: 'Conflicted' },
      { type: 'ResolvedRefs', status: 'False', reason: 'ResolvedRefs' }
    ])
    expect(onlyParent(predicted(conflicted)).verdict).toBe('ready')
  })

  it('ready where none covers it, or where the source does not list them', () => {
    const listed = {
      source: { kind: 'dump' as const, complete: [...EVERY_KIND, 'BackendTLSPolicy'] }
    }
    const none = run(cluster(ok), [httpRoute('app', 'new', { parentRefs: [EDGE] })], listed)
    expect(onlyParent(none).verdict).toBe('ready')
    const unlisted = run(
      [...cluster(ok), policy],
      [httpRoute('app', 'new', { parentRefs: [EDGE] })]
    )
    expect(onlyParent(unlisted).verdict).toBe('ready')
  })
})

// The manifests laid over the cluster source, ListenerSets, what predict ignores, and the report block.
import { describe, expect, it } from 'vitest'
import {
  EDGE,
  EVERY_KIND,
  baseCluster,
  gateway,
  httpRoute,
  namespace,
  onlyParent,
  run,
  service
} from './fixtures.ts'
import { overlay } from '../../../src/predict/overlay.ts'
import { explainRoute } from '../../../src/diagnose/explain.ts'
import { predict } from '../../../src/predict/index.ts'
import { expectValidReport } from '../../helpers/schema.ts'

const G = 'gateway.networking.k8s.io'

function listenerSet(ns: string, name: string, parent: { name: string; namespace?: string }) {
  return {
    apiVersion: `${G}/v1`,
    kind: 'ListenerSet',
    metadata: { name, namespace: ns },
    spec: {
      parentRef: parent,
      listeners: [{ name: 'extra', port: 80, protocol: 'HTTP', hostname: 'ls.example.com' }]
    }
  }
}

describe('predict: overlay', () => {
  it('a manifest object replaces the cluster object of the same group, kind, namespace and name', () => {
    const result = overlay(
      [service('app', 'web', [80]), service('app', 'other', [80])],
      [{ file: 'a.yaml', index: 1, line: 3, object: service('app', 'web', [9090]) }]
    )
    expect(result.objects).toHaveLength(2)
    const web = result.objects.find((o) => o.metadata.name === 'web')
    expect(web?.spec).toEqual({ ports: [{ port: 9090 }] })
  })

  it('only the manifests Routes are predicted, never the cluster others, each with its file and line', () => {
    const report = run(
      [...baseCluster(), httpRoute('app', 'existing', { parentRefs: [EDGE] })],
      [httpRoute('app', 'shop', { parentRefs: [EDGE] })]
    )
    expect(report.routes.map((r) => [r.name, r.source])).toEqual([
      ['shop', { file: 'routes.yaml', line: 1 }]
    ])
  })

  it('a namespaced manifest object without a namespace lands in default', () => {
    const route = httpRoute('app', 'shop', { parentRefs: [EDGE] })
    delete route.metadata.namespace
    const report = run(baseCluster(), [route])
    expect(report.routes[0]?.namespace).toBe('default')
    expect(onlyParent(report).parentRef.namespace).toBe('infra')
    expect(
      overlay([], [{ file: 'a.yaml', index: 1, line: 1, object: route }], 'shop').routes[0]?.route
        .metadata.namespace
    ).toBe('shop')
  })

  it('documents of kinds predict does not read are listed as ignored, with file and line', () => {
    const report = run(baseCluster(), [
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'app' } },
      httpRoute('app', 'shop', { parentRefs: [EDGE] })
    ])
    expect(report.prediction.ignored).toEqual([
      {
        file: 'routes.yaml',
        line: 1,
        kind: 'Deployment',
        name: 'web',
        why: 'predict does not read Deployment (apps/v1)'
      }
    ])
    expect(report.routes).toHaveLength(1)
  })

  it('reports the source with the dump age, and validates against the schema', () => {
    const report = predict({
      cluster: [],
      manifests: [],
      source: {
        kind: 'dump',
        takenAt: '2026-12-04T03:00:00Z',
        context: 'prod',
        cluster: 'https://k8s:6443',
        complete: EVERY_KIND
      },
      now: new Date('2026-12-04T04:00:00Z'),
      settings: { strict: false, conditions: ['Accepted', 'ResolvedRefs'] },
      toolVersion: '1.2.3',
      explain: explainRoute
    })
    expect(report.prediction.source).toEqual({
      kind: 'dump',
      takenAt: '2026-12-04T03:00:00Z',
      ageSeconds: 3600,
      context: 'prod',
      cluster: 'https://k8s:6443'
    })
    expect(report.verdict).toBe('ready')
    expectValidReport(report)
  })

  it('with no cluster source, a Route whose Gateway and Service come with the manifests is predicted', () => {
    const report = predict({
      cluster: [],
      manifests: baseCluster()
        .concat(httpRoute('app', 'shop', { parentRefs: [EDGE] }))
        .map((object, i) => ({ file: 'all.yaml', index: i + 1, line: i + 1, object })),
      source: { kind: 'none', complete: [] },
      now: new Date(),
      settings: { strict: false, conditions: ['Accepted', 'ResolvedRefs'] },
      toolVersion: '1.2.3',
      explain: explainRoute
    })
    expect(report.routes[0]?.parents[0]?.verdict).toBe('ready')
    // and without the Service, it is unknown rather than BackendNotFound
    const without = predict({
      cluster: [],
      manifests: [
        ...baseCluster().filter((o) => o.kind !== 'Service'),
        httpRoute('app', 'shop', { parentRefs: [EDGE] })
      ].map((object, i) => ({ file: 'all.yaml', index: i + 1, line: i + 1, object })),
      source: { kind: 'none', complete: [] },
      now: new Date(),
      settings: { strict: false, conditions: ['Accepted', 'ResolvedRefs'] },
      toolVersion: '1.2.3',
      explain: explainRoute
    })
    expect(without.routes[0]?.parents[0]?.verdict).toBe('unknown')
  })
})

describe('predict: ListenerSets', () => {
  const ref = { group: G, kind: 'ListenerSet', name: 'extra', namespace: 'app' }
  const withGateway = (allowedListeners?: unknown) => [
    ...baseCluster().filter((o) => o.kind !== 'Gateway'),
    gateway(
      'infra',
      'edge',
      [{ name: 'http', allowedRoutes: { namespaces: { from: 'All' } } }],
      allowedListeners ? { allowedListeners } : {}
    ),
    listenerSet('app', 'extra', { name: 'edge', namespace: 'infra' })
  ]

  it("attaches through the Gateway's allowedListeners to the ListenerSet's own listeners", () => {
    const report = run(withGateway({ namespaces: { from: 'All' } }), [
      httpRoute('app', 'shop', { parentRefs: [ref], hostnames: ['ls.example.com'] })
    ])
    expect(onlyParent(report).verdict).toBe('ready')
    expect(onlyParent(report).controllerName).toBe('gateway.envoyproxy.io/gatewayclass-controller')
    const miss = run(withGateway({ namespaces: { from: 'All' } }), [
      httpRoute('app', 'shop', { parentRefs: [ref], hostnames: ['x.example.org'] })
    ])
    expect(onlyParent(miss).conditions?.[0]?.reason).toBe('NoMatchingListenerHostname')
  })

  it('a ListenerSet the Gateway does not allow (allowedListeners defaults to None) is unknown, not a guessed reason', () => {
    const report = run(withGateway(), [httpRoute('app', 'shop', { parentRefs: [ref] })])
    expect(onlyParent(report).verdict).toBe('unknown')
    expect(onlyParent(report).why?.join(' ')).toContain('allowedListeners.namespaces.from: None')
  })

  it('allowedListeners from Selector reads the ListenerSet namespace labels', () => {
    const cluster = withGateway({
      namespaces: { from: 'Selector', selector: { matchLabels: { team: 'web' } } }
    }).map((o) =>
      o.kind === 'Namespace' && o.metadata.name === 'app' ? namespace('app', { team: 'web' }) : o
    )
    expect(
      onlyParent(
        run(cluster, [
          httpRoute('app', 'shop', { parentRefs: [ref], hostnames: ['ls.example.com'] })
        ])
      ).verdict
    ).toBe('ready')
  })
})

// ResolvedRefs, predicted forwards: backendRefs checked kind, then grant, then Service and port, as the
// conformance suite's httproute-invalid-backendref-unknown-kind, -invalid-cross-namespace-backend-ref,
// -reference-grant and -invalid-backendref-nonexistent cases assert. Accepted stays True.
import { describe, expect, it } from 'vitest'
import {
  EDGE,
  EVERY_KIND,
  CONTOUR,
  TRAEFIK,
  baseCluster,
  condition,
  gateway,
  gatewayClass,
  httpRoute,
  namespace,
  onlyParent,
  referenceGrant,
  run,
  service
} from './fixtures.ts'
import { expectValidReport } from '../../helpers/schema.ts'
import { fixText } from '../../helpers/fixes.ts'

/** The base cluster with its class handed to another controller. */
const traefikOr = (controllerName: string) => [
  gatewayClass('other', controllerName),
  namespace('app'),
  namespace('infra'),
  gateway('infra', 'edge', [{ name: 'http', allowedRoutes: { namespaces: { from: 'All' } } }], {
    className: 'other'
  }),
  service('app', 'web')
]

const route = (backendRefs: unknown[]) =>
  httpRoute('app', 'shop', { parentRefs: [EDGE], backendRefs })

describe('predict: backendRefs', () => {
  it('a missing Service is BackendNotFound on ResolvedRefs while Accepted stays True', () => {
    const report = run(baseCluster(), [route([{ name: 'nope', port: 80 }])])
    expect(onlyParent(report).verdict).toBe('failed')
    expect(condition(report, 'Accepted')?.status).toBe('True')
    expect(condition(report, 'ResolvedRefs')).toMatchObject({
      status: 'False',
      reason: 'BackendNotFound'
    })
    const problem = onlyParent(report).problems[0]
    expect(problem?.reason).toBe('BackendNotFound')
    expect(problem?.title).toContain('app/nope does not exist')
    expectValidReport(report)
  })

  it("a port the Service does not have: Envoy Gateway's own PortNotFound, BackendNotFound elsewhere, with the Service ports as evidence", () => {
    const report = run(baseCluster(), [route([{ name: 'web', port: 8080 }])])
    expect(condition(report, 'ResolvedRefs')).toMatchObject({
      status: 'False',
      reason: 'PortNotFound'
    })
    expect(onlyParent(report).problems[0]?.remediation).toContain(
      'Set port on rule 0 backendRef 0 to one of 80'
    )
    const contour = run(traefikOr(CONTOUR), [route([{ name: 'web', port: 8080 }])])
    expect(condition(contour, 'ResolvedRefs')).toMatchObject({
      status: 'False',
      reason: 'BackendNotFound'
    })
  })

  it('Contour refuses a Service port whose appProtocol it does not serve: UnsupportedProtocol', () => {
    const withProtocol = (appProtocol: string) => {
      const objects = traefikOr(CONTOUR).filter((o) => o.kind !== 'Service')
      const web = service('app', 'web')
      ;(web.spec as { ports: Record<string, unknown>[] }).ports[0]!.appProtocol = appProtocol
      return [...objects, web]
    }
    const report = run(withProtocol('kubernetes.io/wss'), [route([{ name: 'web', port: 80 }])])
    expect(condition(report, 'ResolvedRefs')).toMatchObject({
      status: 'False',
      reason: 'UnsupportedProtocol'
    })
    expect(condition(report, 'ResolvedRefs')?.message).toContain('appProtocol kubernetes.io/wss')
    // the ones it serves, and every appProtocol on another controller
    for (const served of ['kubernetes.io/h2c', 'kubernetes.io/ws', 'http', 'https'])
      expect(
        onlyParent(run(withProtocol(served), [route([{ name: 'web', port: 80 }])])).verdict
      ).toBe('ready')
    const traefik = run(
      withProtocol('kubernetes.io/wss').map((o) =>
        o.kind === 'GatewayClass' ? gatewayClass('other', TRAEFIK) : o
      ),
      [route([{ name: 'web', port: 80 }])]
    )
    expect(condition(traefik, 'ResolvedRefs')?.reason).not.toBe('UnsupportedProtocol')
  })

  it('a Service created by the pull request counts', () => {
    const report = run(baseCluster(), [
      service('app', 'new', [8080]),
      route([{ name: 'new', port: 8080 }])
    ])
    expect(onlyParent(report).verdict).toBe('ready')
  })

  it('without Services in the source, a backend is unknown naming what to add, never BackendNotFound', () => {
    const cluster = baseCluster().filter((o) => o.kind !== 'Service')
    const report = run(cluster, [route([{ name: 'web', port: 80 }])], {
      source: { kind: 'dump', complete: EVERY_KIND.filter((k) => k !== 'Service') }
    })
    expect(onlyParent(report).verdict).toBe('unknown')
    expect(condition(report, 'ResolvedRefs')).toMatchObject({
      status: 'Unknown',
      reason: 'Unpredictable'
    })
    expect(report.prediction.missingKinds).toEqual(['Service'])
    expect(report.prediction.unknownReasons.join(' ')).toContain('Services: add them to the dump')
  })

  it('cross-namespace without a ReferenceGrant is RefNotPermitted, with the grant as fix; with the grant it is ready', () => {
    const cluster = [...baseCluster(), namespace('data'), service('data', 'db', [5432])]
    const refs = [{ name: 'db', namespace: 'data', port: 5432 }]
    const denied = run(cluster, [route(refs)])
    expect(condition(denied, 'ResolvedRefs')).toMatchObject({
      status: 'False',
      reason: 'RefNotPermitted'
    })
    expect(condition(denied, 'Accepted')?.status).toBe('True')
    expect(fixText(onlyParent(denied).problems[0])).toContain('kind: ReferenceGrant')
    expect(
      onlyParent(run([...cluster, referenceGrant('data', 'app')], [route(refs)])).verdict
    ).toBe('ready')
    // the grant may come with the pull request
    expect(onlyParent(run(cluster, [referenceGrant('data', 'app'), route(refs)])).verdict).toBe(
      'ready'
    )
  })

  it('a grant to another Service name or from another namespace does not permit', () => {
    const cluster = [...baseCluster(), namespace('data'), service('data', 'db', [5432])]
    const refs = [{ name: 'db', namespace: 'data', port: 5432 }]
    expect(
      condition(
        run([...cluster, referenceGrant('data', 'app', { name: 'cache' })], [route(refs)]),
        'ResolvedRefs'
      )?.reason
    ).toBe('RefNotPermitted')
    expect(
      condition(run([...cluster, referenceGrant('data', 'shop')], [route(refs)]), 'ResolvedRefs')
        ?.reason
    ).toBe('RefNotPermitted')
  })

  it('RefNotPermitted comes before BackendNotFound: a cross-namespace ref to a missing Service', () => {
    const report = run(baseCluster(), [route([{ name: 'gone', namespace: 'data', port: 80 }])])
    expect(condition(report, 'ResolvedRefs')?.reason).toBe('RefNotPermitted')
  })

  it('without ReferenceGrants in the source, a cross-namespace ref is unknown', () => {
    const cluster = [...baseCluster(), service('data', 'db', [5432])]
    const report = run(cluster, [route([{ name: 'db', namespace: 'data', port: 5432 }])], {
      source: { kind: 'dump', complete: EVERY_KIND.filter((k) => k !== 'ReferenceGrant') }
    })
    expect(onlyParent(report).verdict).toBe('unknown')
    expect(report.prediction.missingKinds).toEqual(['ReferenceGrant'])
  })

  it('an unknown backend kind is InvalidKind for a controller whose kinds are known, before a missing Service', () => {
    const report = run(baseCluster(), [
      route([
        { group: 'example.com', kind: 'UnknownKind', name: 'x' },
        { name: 'gone', port: 80 }
      ])
    ])
    expect(condition(report, 'ResolvedRefs')).toMatchObject({
      status: 'False',
      reason: 'InvalidKind'
    })
    expect(onlyParent(report).problems[0]?.title).toContain('unsupported kind UnknownKind')
  })

  it("a kind the controller takes (Envoy Gateway's Backend) is unknown, not InvalidKind", () => {
    const report = run(baseCluster(), [
      route([{ group: 'gateway.envoyproxy.io', kind: 'Backend', name: 'x' }])
    ])
    expect(onlyParent(report).verdict).toBe('unknown')
  })

  it('Traefik takes its TraefikService (unknown: predict cannot check it) and refuses other kinds with InvalidKind', () => {
    const report = run(traefikOr(TRAEFIK), [
      route([{ group: 'traefik.io', kind: 'TraefikService', name: 'x' }])
    ])
    expect(onlyParent(report).verdict).toBe('unknown')
    expect(onlyParent(report).why?.join(' ')).toContain('not a core Service')
    const other = run(traefikOr(TRAEFIK), [
      route([{ group: 'example.com', kind: 'Bucket', name: 'x' }])
    ])
    expect(condition(other, 'ResolvedRefs')?.reason).toBe('InvalidKind')
  })

  it('a controller route-gate has no catalogue entry for leaves a non-Service kind unknown', () => {
    const report = run(traefikOr('example.com/gateway'), [
      route([{ group: 'example.com', kind: 'Bucket', name: 'x' }])
    ])
    expect(onlyParent(report).verdict).toBe('unknown')
  })

  it('an ExternalName Service is unknown: controllers differ', () => {
    const report = run(
      [...baseCluster(), service('app', 'ext', [80], 'ExternalName')],
      [route([{ name: 'ext', port: 80 }])]
    )
    expect(onlyParent(report).verdict).toBe('unknown')
  })

  it('Traefik: a resolving Service is ready, with a note that endpoints are not in the dump', () => {
    const cluster = [
      gatewayClass('traefik', TRAEFIK),
      namespace('app'),
      namespace('infra'),
      gateway('infra', 'edge', [{ name: 'http', allowedRoutes: { namespaces: { from: 'All' } } }], {
        className: 'traefik'
      }),
      service('app', 'web')
    ]
    const report = run(cluster, [route([{ name: 'web', port: 80 }])])
    expect(onlyParent(report).verdict).toBe('ready')
    expect(report.notes?.join(' ')).toContain('EndpointSlices')
  })

  it('Contour refuses a rule without backendRefs (Degraded); Envoy Gateway accepts it', () => {
    const empty = httpRoute('app', 'shop', { parentRefs: [EDGE], backendRefs: [] })
    const contour = run(traefikOr(CONTOUR), [empty])
    expect(condition(contour, 'ResolvedRefs')).toMatchObject({
      status: 'False',
      reason: 'Degraded'
    })
    expect(onlyParent(contour).problems[0]?.title).toBe(
      'Rule 0 of the HTTPRoute has no backendRefs'
    )
    expect(onlyParent(run(baseCluster(), [empty])).verdict).toBe('ready')
  })

  it('with conditions: [Accepted] only, a ResolvedRefs failure is a warning and the parent is ready', () => {
    const report = run(baseCluster(), [route([{ name: 'nope', port: 80 }])], {
      conditions: ['Accepted']
    })
    expect(onlyParent(report).verdict).toBe('ready')
    expect(onlyParent(report).problems[0]?.severity).toBe('warning')
  })
})

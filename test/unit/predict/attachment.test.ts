// Accepted, predicted forwards: parentRef to listeners, sectionName/port, admission by namespace and
// kind, hostnames, listeners the controller refused, and parents that are absent. Cases follow the
// Gateway API conformance suite's HTTPRoute tests (httproute-disallowed-kind, -listener-hostname-matching,
// -invalid-parentref-section-name / -port, -hostname-intersection, -reference-grant, gateway-with-attached-routes).
import { describe, expect, it } from 'vitest'
import {
  EDGE,
  TRAEFIK,
  baseCluster,
  condition,
  gateway,
  gatewayClass,
  httpRoute,
  namespace,
  onlyParent,
  run,
  service
} from './fixtures.ts'
import { expectValidReport } from '../../helpers/schema.ts'
import { renderText } from '../../../src/report/terminal.ts'
import { byName, fixedListener } from '../../helpers/fixes.ts'

describe('predict: attachment', () => {
  it('predicts ready for a Route the listener admits, with both conditions True and the controller', () => {
    const report = run(baseCluster(), [httpRoute('app', 'shop', { parentRefs: [EDGE] })])
    const parent = onlyParent(report)
    expect(parent.verdict).toBe('ready')
    expect(parent.controllerName).toBe('gateway.envoyproxy.io/gatewayclass-controller')
    expect(parent.parentRef).toEqual({
      group: 'gateway.networking.k8s.io',
      kind: 'Gateway',
      namespace: 'infra',
      name: 'edge'
    })
    expect(parent.conditions?.map((c) => `${c.type}=${c.status} ${c.reason}`)).toEqual([
      'Accepted=True Accepted',
      'ResolvedRefs=True ResolvedRefs'
    ])
    expect(parent.problems).toEqual([])
    expect(report.verdict).toBe('ready')
    expect(report.mode).toBe('predict')
    expectValidReport(report)
  })

  it('a sectionName no listener has is NoMatchingParent', () => {
    const report = run(baseCluster(), [
      httpRoute('app', 'shop', { parentRefs: [{ ...EDGE, sectionName: 'https' }] })
    ])
    expect(onlyParent(report).verdict).toBe('failed')
    expect(condition(report, 'Accepted')).toMatchObject({
      status: 'False',
      reason: 'NoMatchingParent'
    })
    expect(condition(report, 'Accepted')?.message).toContain('sectionName https')
    expect(onlyParent(report).problems[0]?.reason).toBe('NoMatchingParent')
    expectValidReport(report)
  })

  it('a port no listener listens on is NoMatchingParent; the right port is ready', () => {
    const wrong = run(baseCluster(), [
      httpRoute('app', 'shop', { parentRefs: [{ ...EDGE, port: 8080 }] })
    ])
    expect(condition(wrong, 'Accepted')?.reason).toBe('NoMatchingParent')
    const right = run(baseCluster(), [
      httpRoute('app', 'shop', { parentRefs: [{ ...EDGE, port: 80 }] })
    ])
    expect(onlyParent(right).verdict).toBe('ready')
  })

  it('from: Same refuses a Route of another namespace with NotAllowedByListeners, and accepts its own', () => {
    const cluster = [
      ...baseCluster().filter((o) => o.kind !== 'Gateway'),
      gateway('infra', 'edge', [{ name: 'http' }]),
      service('infra', 'web')
    ]
    const other = run(cluster, [httpRoute('app', 'shop', { parentRefs: [EDGE] })])
    expect(condition(other, 'Accepted')).toMatchObject({
      status: 'False',
      reason: 'NotAllowedByListeners'
    })
    expect(fixedListener(onlyParent(other).problems[0], 'http')?.allowedRoutes).toMatchObject({
      namespaces: byName('infra', 'app')
    })
    const same = run(cluster, [httpRoute('infra', 'shop', { parentRefs: [{ name: 'edge' }] })])
    expect(onlyParent(same).verdict).toBe('ready')
  })

  it('from: Selector reads the Namespace labels, from the dump or from the manifests', () => {
    const selector = {
      namespaces: { from: 'Selector', selector: { matchLabels: { team: 'shop' } } }
    }
    const cluster = [
      ...baseCluster().filter((o) => o.kind !== 'Gateway'),
      gateway('infra', 'edge', [{ name: 'http', allowedRoutes: selector }])
    ]
    const refused = run(cluster, [httpRoute('app', 'shop', { parentRefs: [EDGE] })])
    expect(condition(refused, 'Accepted')?.reason).toBe('NotAllowedByListeners')
    expect(condition(refused, 'Accepted')?.message).toContain('label team is "web", not "shop"')
    // the pull request relabels the namespace: its Namespace replaces the cluster's
    const relabelled = run(cluster, [
      namespace('app', { team: 'shop' }),
      httpRoute('app', 'shop', { parentRefs: [EDGE] })
    ])
    expect(onlyParent(relabelled).verdict).toBe('ready')
  })

  it('a Selector listener with no Namespaces in the source is unknown, naming what to add to the dump', () => {
    const selector = {
      namespaces: { from: 'Selector', selector: { matchLabels: { team: 'web' } } }
    }
    const cluster = [
      ...baseCluster().filter((o) => o.kind !== 'Gateway' && o.kind !== 'Namespace'),
      gateway('infra', 'edge', [{ name: 'http', allowedRoutes: selector }])
    ]
    const report = run(cluster, [httpRoute('app', 'shop', { parentRefs: [EDGE] })], {
      source: { kind: 'dump', complete: ['GatewayClass', 'Gateway', 'Service', 'ReferenceGrant'] }
    })
    expect(onlyParent(report).verdict).toBe('unknown')
    expect(onlyParent(report).why?.join(' ')).toContain('add them to the dump')
    expect(report.prediction.missingKinds).toEqual(['Namespace'])
    expect(report.verdict).toBe('unknown')
    expect(report.counts).toMatchObject({ routes: 1, unknown: 1, failed: 0 })
    expect(onlyParent(report).problems.map((p) => [p.reason, p.severity])).toEqual([
      ['Unpredictable', 'warning']
    ])
    expectValidReport(report)
  })

  it('allowedRoutes.kinds without HTTPRoute is NotAllowedByListeners (httproute-disallowed-kind)', () => {
    const kinds = { namespaces: { from: 'All' }, kinds: [{ kind: 'GRPCRoute' }] }
    const cluster = [
      ...baseCluster().filter((o) => o.kind !== 'Gateway'),
      gateway('infra', 'edge', [{ name: 'http', allowedRoutes: kinds }])
    ]
    const report = run(cluster, [httpRoute('app', 'shop', { parentRefs: [EDGE] })])
    expect(condition(report, 'Accepted')).toMatchObject({
      status: 'False',
      reason: 'NotAllowedByListeners'
    })
    expect(condition(report, 'Accepted')?.message).toContain('takes GRPCRoute, not HTTPRoute')
  })

  it("a TLS listener's protocol does not take an HTTPRoute", () => {
    const cluster = [
      ...baseCluster().filter((o) => o.kind !== 'Gateway'),
      gateway('infra', 'edge', [
        { name: 'tls', port: 443, protocol: 'TLS', allowedRoutes: { namespaces: { from: 'All' } } }
      ])
    ]
    const report = run(cluster, [httpRoute('app', 'shop', { parentRefs: [EDGE] })])
    expect(condition(report, 'Accepted')?.reason).toBe('NotAllowedByListeners')
  })

  it('hostnames: no overlap is NoMatchingListenerHostname; wildcards and hostname-less Routes match', () => {
    const cluster = [
      ...baseCluster().filter((o) => o.kind !== 'Gateway'),
      gateway('infra', 'edge', [
        { name: 'http', hostname: '*.example.com', allowedRoutes: { namespaces: { from: 'All' } } }
      ])
    ]
    const miss = run(cluster, [
      httpRoute('app', 'shop', { parentRefs: [EDGE], hostnames: ['shop.example.net'] })
    ])
    expect(condition(miss, 'Accepted')).toMatchObject({
      status: 'False',
      reason: 'NoMatchingListenerHostname'
    })
    // a wildcard listener does not match its own apex
    const apex = run(cluster, [
      httpRoute('app', 'shop', { parentRefs: [EDGE], hostnames: ['example.com'] })
    ])
    expect(condition(apex, 'Accepted')?.reason).toBe('NoMatchingListenerHostname')
    for (const hostnames of [
      ['shop.example.com'],
      ['a.b.example.com'],
      ['*.example.com'],
      ['shop.example.net', 'x.example.com'],
      []
    ]) {
      expect(
        onlyParent(run(cluster, [httpRoute('app', 'shop', { parentRefs: [EDGE], hostnames })]))
          .verdict,
        hostnames.join()
      ).toBe('ready')
    }
  })

  it('a listener that admits the namespace but not the hostname beats one refusing the namespace: NoMatchingListenerHostname', () => {
    const cluster = [
      ...baseCluster().filter((o) => o.kind !== 'Gateway'),
      gateway('infra', 'edge', [
        { name: 'same', port: 80, hostname: 'shop.example.com' },
        {
          name: 'all',
          port: 80,
          hostname: 'other.example.com',
          allowedRoutes: { namespaces: { from: 'All' } }
        }
      ])
    ]
    const report = run(cluster, [
      httpRoute('app', 'shop', { parentRefs: [EDGE], hostnames: ['shop.example.com'] })
    ])
    expect(condition(report, 'Accepted')?.reason).toBe('NoMatchingListenerHostname')
  })

  it('a listener the controller refused admits nothing, and the prediction names its reason (Traefik PortUnavailable)', () => {
    const status = {
      listeners: [
        {
          name: 'http',
          supportedKinds: [{ group: 'gateway.networking.k8s.io', kind: 'HTTPRoute' }],
          conditions: [
            {
              type: 'Accepted',
              status: 'False',
              reason: 'PortUnavailable',
              message:
                'Cannot find entryPoint for Gateway: no matching entryPoint for port 9999 and protocol "HTTP"'
            }
          ]
        }
      ]
    }
    const cluster = [
      gatewayClass('traefik', TRAEFIK),
      namespace('app'),
      namespace('infra'),
      gateway(
        'infra',
        'edge',
        [{ name: 'http', port: 9999, allowedRoutes: { namespaces: { from: 'All' } } }],
        { className: 'traefik', status }
      ),
      service('app', 'web')
    ]
    const report = run(cluster, [httpRoute('app', 'shop', { parentRefs: [EDGE] })])
    expect(onlyParent(report).verdict).toBe('failed')
    expect(condition(report, 'Accepted')?.message).toContain('PortUnavailable')
    expect(onlyParent(report).controllerName).toBe(TRAEFIK)
  })

  it('supportedKinds without the Route kind refuses it', () => {
    const status = {
      listeners: [
        {
          name: 'http',
          supportedKinds: [{ group: 'gateway.networking.k8s.io', kind: 'GRPCRoute' }],
          conditions: []
        }
      ]
    }
    const cluster = [
      ...baseCluster().filter((o) => o.kind !== 'Gateway'),
      gateway('infra', 'edge', [{ name: 'http', allowedRoutes: { namespaces: { from: 'All' } } }], {
        status
      })
    ]
    expect(
      condition(run(cluster, [httpRoute('app', 'shop', { parentRefs: [EDGE] })]), 'Accepted')
        ?.reason
    ).toBe('NotAllowedByListeners')
  })

  it('one listener refusing and another admitting is ready', () => {
    const cluster = [
      ...baseCluster().filter((o) => o.kind !== 'Gateway'),
      gateway('infra', 'edge', [
        { name: 'same' },
        { name: 'all', allowedRoutes: { namespaces: { from: 'All' } } }
      ])
    ]
    expect(
      onlyParent(run(cluster, [httpRoute('app', 'shop', { parentRefs: [EDGE] })])).verdict
    ).toBe('ready')
  })
})

describe('predict: parents that are absent or new', () => {
  it('a missing Gateway fails only when the source lists every Gateway; otherwise it is unknown', () => {
    const route = httpRoute('app', 'shop', { parentRefs: [{ name: 'nope', namespace: 'infra' }] })
    const listed = run(baseCluster(), [route])
    expect(onlyParent(listed).verdict).toBe('failed')
    expect(onlyParent(listed).conditions).toEqual([])
    expect(onlyParent(listed).problems[0]?.reason).toBe('NoStatus')
    expect(onlyParent(listed).problems[0]?.evidence?.join(' ')).toContain('edge')
    // no controller will write anything there: the message is predict's, not a controller's
    const text = renderText(listed, { color: false })
    expect(text).toMatch(/predict finds:\s+Gateway infra\/nope does not exist/)
    expect(text).not.toContain('a controller would write')
    const partial = run(baseCluster(), [route], {
      source: { kind: 'dump', complete: ['Service', 'Namespace'] }
    })
    expect(onlyParent(partial).verdict).toBe('unknown')
    expect(partial.prediction.missingKinds).toContain('Gateway')
  })

  it('a Gateway whose GatewayClass is absent: failed when every class is listed, else unknown', () => {
    const cluster = baseCluster().filter((o) => o.kind !== 'GatewayClass')
    const route = httpRoute('app', 'shop', { parentRefs: [EDGE] })
    expect(onlyParent(run(cluster, [route])).verdict).toBe('failed')
    const partial = run(cluster, [route], {
      source: { kind: 'dump', complete: ['Gateway', 'Service', 'Namespace', 'ReferenceGrant'] }
    })
    expect(onlyParent(partial).verdict).toBe('unknown')
  })

  it('a Gateway new in the pull request is predicted from its spec, and the report says no controller has seen it', () => {
    const cluster = baseCluster().filter((o) => o.kind !== 'Gateway')
    const report = run(cluster, [
      gateway('infra', 'edge', [
        {
          name: 'http',
          hostname: 'shop.example.com',
          allowedRoutes: { namespaces: { from: 'All' } }
        }
      ]),
      httpRoute('app', 'shop', { parentRefs: [EDGE], hostnames: ['shop.example.com'] })
    ])
    expect(onlyParent(report).verdict).toBe('ready')
    expect(report.prediction.newGateways).toEqual(['infra/edge'])
    // said once, from the prediction's own list, however many Routes attach to it
    const text = renderText(report, { color: false })
    expect(text.match(/Gateway infra\/edge is new in the manifests/g)).toHaveLength(1)
    expect(text).toContain('no controller has seen it yet')
  })

  it('a Gateway of refused listeners (Traefik: ListenersNotValid, PortUnavailable) admits nothing', () => {
    const refusedListener = (name: string) => ({
      name,
      attachedRoutes: 0,
      supportedKinds: [],
      conditions: [
        {
          type: 'Accepted',
          status: 'False',
          reason: 'PortUnavailable',
          message: 'Cannot find entryPoint for Gateway: no matching entryPoint for port 80'
        }
      ]
    })
    const status = (listeners: unknown[]) => ({
      conditions: [
        {
          type: 'Accepted',
          status: 'False',
          reason: 'ListenersNotValid',
          message: 'All Listeners must be valid'
        }
      ],
      listeners
    })
    const listeners = [
      { name: 'http', allowedRoutes: { namespaces: { from: 'All' } } },
      { name: 'admin', port: 8080, allowedRoutes: { namespaces: { from: 'All' } } }
    ]
    const cluster = (listenerStatus: unknown[]) => [
      gatewayClass('eg', TRAEFIK),
      namespace('infra'),
      namespace('app'),
      gateway('infra', 'edge', listeners, { status: status(listenerStatus) }),
      service('app', 'web')
    ]
    const onHttp = httpRoute('app', 'shop', {
      parentRefs: [{ ...EDGE, sectionName: 'http' }],
      backendRefs: [{ name: 'missing', port: 80 }]
    })
    const report = run(cluster([refusedListener('http'), refusedListener('admin')]), [onHttp])
    const parent = onlyParent(report)
    expect(parent.verdict).toBe('failed')
    const accepted = parent.conditions?.find((c) => c.type === 'Accepted')
    expect(accepted).toMatchObject({ status: 'False', reason: 'NotAllowedByListeners' })
    expect(accepted?.message).toContain('PortUnavailable')
    // and the backends are predicted as for any parent
    expect(parent.conditions?.find((c) => c.type === 'ResolvedRefs')).toMatchObject({
      status: 'False',
      reason: 'BackendNotFound'
    })
    // a selected listener the status accepts, on the refused Gateway, admits by the listener rules
    // (what Traefik writes in the conformance suite's httproute-listener-port-matching); one the
    // status does not judge stays the controller's
    const admin = httpRoute('app', 'shop', { parentRefs: [{ ...EDGE, sectionName: 'admin' }] })
    const open = {
      name: 'admin',
      attachedRoutes: 0,
      supportedKinds: [{ kind: 'HTTPRoute' }],
      conditions: [{ type: 'Accepted', status: 'True', reason: 'Accepted' }]
    }
    const judged = run(cluster([refusedListener('http'), open]), [admin])
    expect(onlyParent(judged).conditions?.find((c) => c.type === 'Accepted')?.status).toBe('True')
    const silent = { ...open, conditions: [] }
    expect(onlyParent(run(cluster([refusedListener('http'), silent]), [admin])).verdict).toBe(
      'unknown'
    )
  })

  it('a Gateway its controller did not accept leaves the Route unknown, naming the reason', () => {
    const status = {
      conditions: [
        {
          type: 'Accepted',
          status: 'False',
          reason: 'InvalidParameters',
          message: 'bad parametersRef'
        }
      ]
    }
    const cluster = [
      ...baseCluster().filter((o) => o.kind !== 'Gateway'),
      gateway('infra', 'edge', [{ name: 'http', allowedRoutes: { namespaces: { from: 'All' } } }], {
        status
      })
    ]
    const report = run(cluster, [httpRoute('app', 'shop', { parentRefs: [EDGE] })])
    expect(onlyParent(report).verdict).toBe('unknown')
    expect(onlyParent(report).controllerName).toBe('gateway.envoyproxy.io/gatewayclass-controller')
    expect(onlyParent(report).why?.join(' ')).toContain('InvalidParameters: bad parametersRef')
  })

  it('a Route without parentRefs that another Route delegates to is unknown, naming the delegator', () => {
    const delegate = { group: 'gateway.networking.k8s.io', kind: 'HTTPRoute', name: 'child' }
    const parent = httpRoute('app', 'parent', { parentRefs: [EDGE], backendRefs: [delegate] })
    for (const [cluster, manifests] of [
      [baseCluster(), [parent, httpRoute('app', 'child', {})]],
      // the delegating Route already in the cluster, the child new in the pull request
      [[...baseCluster(), parent], [httpRoute('app', 'child', {})]]
    ] as const) {
      const report = run([...cluster], [...manifests])
      const child = report.routes.find((r) => r.name === 'child')!
      expect(child.verdict).toBe('unknown')
      expect(child.problems?.map((p) => p.reason)).toEqual(['Unpredictable'])
      expect(child.problems?.[0]?.message).toContain('HTTPRoute app/parent delegates to it')
      // no dump can tell what kgateway decides: nothing to add to it
      expect(child.problems?.[0]?.remediation).not.toContain('dump')
      const text = renderText(report, { color: false })
      expect(text).toMatch(/cannot tell:\s+The Route has no spec\.parentRefs/)
      expect(text).not.toMatch(/a controller would write:\s+The Route has no spec/)
      expectValidReport(report)
    }
    // `*` delegates to every HTTPRoute of the namespace; another namespace's Route is not a child
    const wildcard = httpRoute('app', 'parent', {
      parentRefs: [EDGE],
      backendRefs: [{ ...delegate, name: '*', namespace: 'team' }]
    })
    const report = run(baseCluster(), [
      wildcard,
      httpRoute('team', 'any', {}),
      httpRoute('app', 'other', {})
    ])
    expect(report.routes.find((r) => r.name === 'any')?.verdict).toBe('unknown')
    expect(report.routes.find((r) => r.name === 'other')?.verdict).toBe('failed')
  })

  it('an unknown for want of a kind says to add that kind to the dump, and only then', () => {
    const route = httpRoute('app', 'shop', {
      parentRefs: [EDGE],
      backendRefs: [{ name: 'api', port: 80 }]
    })
    const report = run(baseCluster(), [route], {
      source: { kind: 'dump', complete: ['GatewayClass', 'Gateway', 'Namespace', 'ReferenceGrant'] }
    })
    const problem = onlyParent(report).problems.find((p) => p.reason === 'Unpredictable')
    expect(problem?.remediation).toContain(
      'add the Services to the dump (route-gate dump lists them)'
    )
  })

  it('a Route without parentRefs is a definite failure: it attaches to nothing', () => {
    const report = run(baseCluster(), [httpRoute('app', 'shop', {})])
    expect(report.routes[0]?.verdict).toBe('failed')
    expect(report.routes[0]?.problems?.[0]?.reason).toBe('NoParentRefs')
    expect(report.routes[0]?.problems?.[0]?.message).toContain('attaches to nothing')
    expectValidReport(report)
  })

  it('a mesh (Service) parent is unknown, never guessed', () => {
    const report = run(baseCluster(), [
      httpRoute('app', 'shop', { parentRefs: [{ group: '', kind: 'Service', name: 'web' }] })
    ])
    expect(onlyParent(report).verdict).toBe('unknown')
  })

  it("never reads the Route's own status: a manifest carrying ready status is still predicted failed", () => {
    const written = {
      parents: [
        {
          parentRef: { name: 'edge', namespace: 'infra', sectionName: 'nope' },
          controllerName: 'gateway.envoyproxy.io/gatewayclass-controller',
          conditions: [
            { type: 'Accepted', status: 'True', reason: 'Accepted' },
            { type: 'ResolvedRefs', status: 'True', reason: 'ResolvedRefs' }
          ]
        }
      ]
    }
    const report = run(baseCluster(), [
      httpRoute('app', 'shop', { parentRefs: [{ ...EDGE, sectionName: 'nope' }] }, written)
    ])
    expect(onlyParent(report).verdict).toBe('failed')
  })
})

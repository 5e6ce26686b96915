// The end-to-end scenarios of the gate: the committed dist/index.js, started as GitHub's runner starts
// it, against the real kube-apiserver, once per controller (Contour, Envoy Gateway, Traefik), each
// writing its own real status. Where a controller cannot produce a scenario the test name says so and
// the status helper writes it instead.
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import type { Report } from '../../src/model/types.ts'
import type { ActionResult } from '../helpers/action.ts'
import { gate, logOf, reportOf } from '../helpers/gate.ts'
import { httpRouteYaml, manifestDir, serviceYaml } from '../helpers/manifest-files.ts'
import {
  applyYaml,
  controller,
  createService,
  gatewayParentRef,
  getRoute,
  testHostname,
  testNamespace,
  UNSERVED_ENDPOINT,
  waitForRouteCondition,
  writeRouteStatus
} from '../helpers/cluster.ts'
import type { ControllerId } from '../helpers/cluster.ts'
import { writeState } from '../helpers/route-states.ts'
import { fixText } from '../helpers/fixes.ts'

function httpRoute(o: {
  ns: string
  name: string
  backend: string
  controller: ControllerId
  backendNamespace?: string
  sectionName?: string
  gateway?: string
  hostname?: string
}): string {
  const gw = controller(o.controller).gateway
  return httpRouteYaml({
    name: o.name,
    gateway: { name: o.gateway ?? gw.name, namespace: gw.namespace },
    sectionName: o.sectionName,
    hostname: o.hostname ?? testHostname(o.ns, o.name),
    backend: o.backend,
    backendNamespace: o.backendNamespace
  })
}

/** What a controller-manager would write for the Service above (nothing serves the address). */
function endpointSlice(service: string): string {
  return `apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata:
  name: ${service}-1
  labels: {kubernetes.io/service-name: ${service}}
addressType: IPv4
endpoints: [{addresses: [${UNSERVED_ENDPOINT}], conditions: {ready: true}}]
ports: [{name: http, port: 8080, protocol: TCP}]
`
}

/** The remediation must reach the reader in all three places: JSON report, job summary, annotation. */
function expectEverywhere(result: ActionResult, text: string): void {
  const annotations = result.stdout.split('\n').filter((l) => /^::error .*file=/.test(l))
  expect(annotations.join('\n')).toContain(text)
  expect(result.summary).toContain(text)
}

const problemsOf = (report: Report) =>
  report.routes.flatMap((r) => [...(r.problems ?? []), ...r.parents.flatMap((p) => p.problems)])

/** Swaps the last two letters: a typo whose nearest existing name is the original. */
const typo = (name: string): string => `${name.slice(0, -2)}${name.at(-1)}${name.at(-2)}`

/**
 * The parent failed with what the controller itself wrote, and route-gate explained it from its
 * catalog or the standard reasons (never "not in route-gate's catalog"), naming the controller.
 */
function expectControllerProblem(report: Report, id: ControllerId, reason: string) {
  const { controllerName } = controller(id)
  const parent = report.routes.flatMap((r) => r.parents).find((p) => p.verdict === 'failed')
  expect(parent?.controllerName).toBe(controllerName)
  expect(parent?.conditions?.some((c) => c.status === 'False' && c.reason === reason)).toBe(true)
  const problem = parent?.problems.find((p) => p.reason === reason)
  expect(problem?.remediation).not.toBe('')
  expect(problem?.evidence?.join('\n') ?? '').not.toMatch(/not in route-gate's catalog/)
  return problem!
}

/**
 * Traefik reports BackendNotFound ("endpointslices not found") for a Service without EndpointSlices,
 * and no controller-manager writes any here, so every Service in these scenarios gets one.
 */
const withEndpoints = { endpoints: true }

describe.each<ControllerId>(['contour', 'envoy-gateway', 'traefik'])(
  'gate through the committed Action bundle, %s writing the status',
  (id) => {
    /**
     * HTTPRoute web (to Service `backend`, web unless `route` says otherwise) from route.yaml in a
     * fresh namespace that holds Service `service`, gated for `timeout`.
     */
    async function gateWeb(
      prefix: string,
      route: Partial<Parameters<typeof httpRoute>[0]>,
      { timeout = '8s', service = 'web' } = {}
    ): Promise<{ ns: string; result: ActionResult }> {
      const ns = await testNamespace(prefix)
      await createService(ns, service, [{ port: 8080, name: 'http' }], withEndpoints)
      const dir = await manifestDir({
        'route.yaml': httpRoute({ ns, name: 'web', backend: 'web', controller: id, ...route })
      })
      return { ns, result: await gate({ manifests: 'route.yaml', namespace: ns, timeout }, dir) }
    }

    it(`1. applies a Service and an HTTPRoute, ${id} accepts it, exit 0 and ready=true`, async () => {
      const ns = await testNamespace('e2e-ready')
      const dir = await manifestDir({
        'app.yaml': `${serviceYaml('web')}---\n${httpRoute({ ns, name: 'web', backend: 'web', controller: id })}---\n${endpointSlice('web')}`
      })
      const result = await gate({ manifests: 'app.yaml', namespace: ns, timeout: '60s' }, dir)

      expect(result.code, logOf(result)).toBe(0)
      expect(result.outputs).toMatchObject({ verdict: 'ready', ready: 'true', 'failed-routes': '' })
      expect(result.summary).toMatch(/ready/i)
      expect(result.summary).toContain('web')
      const report = await reportOf(result)
      expect(report.routes).toHaveLength(1)
      const [route] = report.routes
      expect(route?.source).toEqual({ file: 'app.yaml', line: 10 })
      expect(route?.parents[0]?.controllerName).toBe(controller(id).controllerName)
      const accepted = route?.parents[0]?.conditions?.find((c) => c.type === 'Accepted')
      expect(accepted).toMatchObject({ status: 'True', observedGeneration: route?.generation })
      expect(result.stdout).toMatch(
        /HTTPRoute .*\/web: parent .* → ready|HTTPRoute .*\/web: parent .* ready/
      )
    })

    it('2a. a missing backend heals when the Service appears while the gate waits', async () => {
      const ns = await testNamespace('e2e-heal')
      const dir = await manifestDir({
        'route.yaml': httpRoute({ ns, name: 'web', backend: 'late', controller: id })
      })
      // the Service appears only once the gate has reported the failure it is to heal from
      let sawFailure = (): void => undefined
      const failureSeen = new Promise<void>((resolve) => (sawFailure = resolve))
      const running = gate(
        { manifests: 'route.yaml', namespace: ns, timeout: '60s' },
        dir,
        (out) => {
          if (/failed \(BackendNotFound\)/.test(out)) sawFailure()
        }
      )
      await Promise.race([failureSeen, running])
      const servicedAt = Date.now()
      await createService(ns, 'late', [{ port: 8080, name: 'http' }], withEndpoints)
      const result = await running

      expect(result.code, logOf(result)).toBe(0)
      expect(result.outputs.ready).toBe('true')
      expect(result.stdout).toMatch(/failed \(BackendNotFound\) → ready( \([A-Za-z]+\))? after/)
      // the time to ready is the change the gate saw: after the Service appeared, within the run
      const report = await reportOf(result)
      const readyAt = Date.parse(report.routes[0]?.readyAt ?? '')
      expect(readyAt).toBeGreaterThanOrEqual(servicedAt)
      expect(readyAt).toBeLessThanOrEqual(Date.parse(report.finishedAt ?? ''))
      // its time to ready: in the collapsed list of ready Routes, or beside its warnings
      // (Envoy Gateway's EndpointsNotFound while the new Service has no endpoints yet)
      expect(result.summary).toMatch(
        new RegExp(
          `<code>${ns}/web</code> \\| .* \\| after \\d|### ⚠️ HTTPRoute ${ns}/web\n\n.* · ready after \\d`
        )
      )
    })

    it('2b. without the Service the gate fails at the deadline with the remediation', async () => {
      const { ns, result } = await gateWeb(
        'e2e-missing',
        { backend: 'checkout-svc' },
        { service: 'checkout' }
      )

      expect(result.code).toBe(1)
      expect(result.outputs).toMatchObject({ verdict: 'failed', ready: 'false' })
      expect(result.outputs['failed-routes']).toBe(`HTTPRoute ${ns}/web`)
      const problem = expectControllerProblem(await reportOf(result), id, 'BackendNotFound')
      expect(problem.remediation).toContain('checkout')
      expectEverywhere(result, 'nearest existing Service')
      expect(result.summary).toContain('BackendNotFound')
      expect(result.summary).toContain('checkout-svc')
      expect(result.stdout).toMatch(/::error .*file=route\.yaml,line=1[,:]/)
    })

    it('3. cross-namespace backend: RefNotPermitted without a ReferenceGrant, ready with one', async () => {
      const ns = await testNamespace('e2e-refs')
      const backendNs = await testNamespace('e2e-backend')
      await createService(backendNs, 'api', [{ port: 8080, name: 'http' }], withEndpoints)
      const route = httpRoute({
        ns,
        name: 'web',
        backend: 'api',
        backendNamespace: backendNs,
        controller: id
      })
      const dir = await manifestDir({ 'route.yaml': route })
      const denied = await gate({ manifests: 'route.yaml', namespace: ns, timeout: '8s' }, dir)

      expect(denied.code).toBe(1)
      const problem = expectControllerProblem(await reportOf(denied), id, 'RefNotPermitted')
      expect(fixText(problem)).toMatch(/kind: ReferenceGrant/)
      expect(fixText(problem)).toContain(`namespace: ${backendNs}`)
      expectEverywhere(denied, `Create the ReferenceGrant below in namespace ${backendNs}`)
      // proven against one read of the whole live cluster before it was printed
      expect(problem.fixes?.[0]?.proof, JSON.stringify(problem.fixes?.[0]?.proof)).toMatchObject({
        state: 'proven'
      })

      await applyYaml(fixText(problem)!, backendNs)
      const allowed = await gate({ routes: `httproute/${ns}/web`, timeout: '60s' })
      expect(allowed.code, logOf(allowed)).toBe(0)
    })

    it('4. a listener that admits only its own namespace: NotAllowedByListeners', async () => {
      const { result } = await gateWeb('e2e-listener', {
        sectionName: 'same-ns',
        hostname: 'same.example.com'
      })

      expect(result.code).toBe(1)
      const problem = expectControllerProblem(await reportOf(result), id, 'NotAllowedByListeners')
      expect(problem.remediation).toContain('same-ns')
      expectEverywhere(result, 'attach to listener')
      expect(result.summary).toContain('NotAllowedByListeners')
    })

    it('5. a parentRef with a wrong sectionName: NoMatchingParent naming the listeners', async () => {
      const { result } = await gateWeb('e2e-section', { sectionName: 'htp' })

      expect(result.code).toBe(1)
      const problem = expectControllerProblem(await reportOf(result), id, 'NoMatchingParent')
      expect(problem.remediation).toContain('http')
      expectEverywhere(result, 'Set sectionName to')
    })

    it('6. a parentRef to a Gateway that does not exist: NoStatus at the deadline', async () => {
      const { name } = controller(id).gateway
      const { result } = await gateWeb('e2e-nogw', { gateway: typo(name) }, { timeout: '5s' })

      expect(result.code).toBe(1)
      const report = await reportOf(result)
      // waited out its whole timeout, by its own clock; how soon after it ends is a timing goal
      expect(report.timedOut).toBe(true)
      expect(report.elapsedMs).toBeGreaterThanOrEqual(5000)
      const problem = problemsOf(report).find((p) => p.reason === 'NoStatus')
      expect(problem?.severity).toBe('error')
      expect(problem?.remediation).toContain(name)
      expectEverywhere(result, 'the nearest existing name')
    })

    it(`7. a spec change: the verdict is about the new generation as ${id} writes it`, async () => {
      const ns = await testNamespace('e2e-generation')
      await createService(ns, 'web', [{ port: 8080, name: 'http' }], withEndpoints)
      const route = (hostname: string) =>
        httpRoute({ ns, name: 'web', backend: 'web', hostname, controller: id })
      await applyYaml(route(testHostname(ns, 'v1')), ns)
      await waitForRouteCondition('HTTPRoute', ns, 'web', (r) =>
        (r.status?.parents ?? []).some((p) =>
          p.conditions.some((c) => c.type === 'Accepted' && c.observedGeneration === 1)
        )
      )
      await applyYaml(route(testHostname(ns, 'v2')), ns)
      const result = await gate({ routes: `httproute/${ns}/web`, timeout: '60s' })

      expect(result.code, logOf(result)).toBe(0)
      const report = await reportOf(result)
      expect(report.routes[0]?.generation).toBe(2)
      const conditions = report.routes[0]?.parents[0]?.conditions ?? []
      expect(conditions.length).toBeGreaterThan(0)
      expect(conditions.every((c) => c.observedGeneration === 2)).toBe(true)
    })

    const udpByController = id === 'envoy-gateway'
    const udpBy = udpByController
      ? 'envoy-gateway'
      : `the status helper (${id} does not implement UDPRoute)`
    it(`8. GRPCRoute, TLSRoute and TCPRoute through ${id}; UDPRoute through ${udpBy}`, async () => {
      const ns = await testNamespace('e2e-kinds')
      const { namespace, name } = controller(id).gateway
      await createService(ns, 'grpc', [{ port: 8080, name: 'grpc' }], withEndpoints)
      await createService(ns, 'tls', [{ port: 8443, name: 'tls' }], withEndpoints)
      await createService(ns, 'tcp', [{ port: 9000, name: 'tcp' }], withEndpoints)
      await createService(ns, 'dns', [{ port: 53, name: 'dns', protocol: 'UDP' }], withEndpoints)
      const udpRoute = (parentRef: string) => `---
apiVersion: gateway.networking.k8s.io/v1alpha2
kind: UDPRoute
metadata: {name: dns}
spec:
  parentRefs: [${parentRef}]
  rules: [{backendRefs: [{name: dns, port: 53}]}]
`
      const dir = await manifestDir({
        'routes.yaml': `apiVersion: gateway.networking.k8s.io/v1
kind: GRPCRoute
metadata: {name: api}
spec:
  parentRefs: [{name: ${name}, namespace: ${namespace}, sectionName: http}]
  hostnames: [${testHostname(ns, 'grpc')}]
  rules: [{backendRefs: [{name: grpc, port: 8080}]}]
---
apiVersion: gateway.networking.k8s.io/v1alpha2
kind: TLSRoute
metadata: {name: passthrough}
spec:
  parentRefs: [{name: ${name}, namespace: ${namespace}, sectionName: tls}]
  hostnames: [${testHostname(ns, 'tls')}]
  rules: [{backendRefs: [{name: tls, port: 8443}]}]
---
apiVersion: gateway.networking.k8s.io/v1alpha2
kind: TCPRoute
metadata: {name: raw}
spec:
  parentRefs: [{name: ${name}, namespace: ${namespace}, sectionName: tcp}]
  rules: [{backendRefs: [{name: tcp, port: 9000}]}]
${udpByController ? udpRoute(`{name: ${name}, namespace: ${namespace}, sectionName: udp}`) : ''}`
      })
      const result = await gate({ manifests: 'routes.yaml', namespace: ns, timeout: '60s' }, dir)
      expect(result.code, logOf(result)).toBe(0)
      const report = await reportOf(result)
      const kinds = ['GRPCRoute', 'TCPRoute', 'TLSRoute', ...(udpByController ? ['UDPRoute'] : [])]
      expect(report.routes.map((r) => r.kind).sort()).toEqual(kinds)
      for (const route of report.routes)
        expect(route.parents[0]?.controllerName).toBe(controller(id).controllerName)
      if (udpByController) return

      const udpParent = gatewayParentRef('other', 'udp')
      await applyYaml(udpRoute(JSON.stringify(udpParent)), ns)
      const running = gate({ routes: `udproute/${ns}/dns`, timeout: '60s' })
      await sleep(1000)
      await writeRouteStatus(
        'UDPRoute',
        ns,
        'dns',
        {
          parents: [
            {
              parentRef: udpParent,
              conditions: [
                { type: 'Accepted', status: 'True', reason: 'Accepted', observedGeneration: 1 },
                {
                  type: 'ResolvedRefs',
                  status: 'True',
                  reason: 'ResolvedRefs',
                  observedGeneration: 1
                }
              ]
            }
          ]
        },
        { controllerName: 'example.com/other' }
      )
      const udp = await running
      expect(udp.code, logOf(udp)).toBe(0)
      expect((await reportOf(udp)).routes[0]?.kind).toBe('UDPRoute')
    })

    it('9. fail-fast ends the run at the first definite failure', async () => {
      const ns = await testNamespace('e2e-failfast')
      const dir = await manifestDir({
        'route.yaml': httpRoute({ ns, name: 'web', backend: 'nothing', controller: id })
      })
      const result = await gate(
        { manifests: 'route.yaml', namespace: ns, timeout: '60s', 'fail-fast': 'true' },
        dir
      )
      expect(result.code).toBe(1)
      const report = await reportOf(result)
      // ended by the failure, before its 60 s deadline by its own clock
      expect(report.timedOut).toBe(false)
      expect(result.outputs.verdict).toBe('failed')
      expectControllerProblem(report, id, 'BackendNotFound')
    })
  }
)

describe('gate through the committed Action bundle, status held back by the status helper', () => {
  it('7b. a spec change under old status: waits for the new generation, never reports the old (none of the three controllers leaves its status stale long enough, so the helper holds it)', async () => {
    const ns = await testNamespace('e2e-generation')
    const parentRef = gatewayParentRef('other')
    await applyYaml(
      `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: web}
spec:
  parentRefs: [${JSON.stringify(parentRef)}]
  rules: [{backendRefs: [{name: web, port: 8080}]}]
`,
      ns
    )
    const ok = (generation: number) => ({
      parents: [
        {
          parentRef,
          conditions: [
            {
              type: 'Accepted',
              status: 'True' as const,
              reason: 'Accepted',
              observedGeneration: generation
            },
            {
              type: 'ResolvedRefs',
              status: 'True' as const,
              reason: 'ResolvedRefs',
              observedGeneration: generation
            }
          ]
        }
      ]
    })
    await writeRouteStatus('HTTPRoute', ns, 'web', ok(1), { controllerName: 'example.com/other' })
    // the spec changes: generation 2, while the status still speaks of generation 1
    await applyYaml(
      `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: web}
spec:
  parentRefs: [${JSON.stringify(parentRef)}]
  rules: [{backendRefs: [{name: web, port: 9090}]}]
`,
      ns
    )
    expect((await getRoute('HTTPRoute', ns, 'web')).metadata.generation).toBe(2)

    const stale = await gate({ routes: `httproute/${ns}/web`, timeout: '4s' })
    expect(stale.code).toBe(1)
    expect(problemsOf(await reportOf(stale)).map((p) => p.reason)).toContain('StaleStatus')

    const running = gate({ routes: `httproute/${ns}/web`, timeout: '60s' })
    await sleep(1500)
    await writeRouteStatus('HTTPRoute', ns, 'web', ok(2), { controllerName: 'example.com/other' })
    const fresh = await running
    expect(fresh.code, logOf(fresh)).toBe(0)
    const report = await reportOf(fresh)
    expect(report.routes[0]?.generation).toBe(2)
    expect(report.routes[0]?.parents[0]?.conditions?.every((c) => c.observedGeneration === 2)).toBe(
      true
    )
  })
})

describe('gate through the committed Action bundle, Contour only', () => {
  it('10. Contour RuleMatchConflict: the report names the older Route that holds the hostname and match', async () => {
    const first = await testNamespace('e2e-conflict-a')
    const second = await testNamespace('e2e-conflict-b')
    const hostname = testHostname(first, 'shared')
    const gw = controller('contour').gateway
    await createService(first, 'api', [8080])
    await createService(second, 'api', [8080])
    await applyYaml(
      httpRoute({ ns: first, name: 'older', backend: 'api', hostname, controller: 'contour' }),
      first
    )
    await waitForRouteCondition('HTTPRoute', first, 'older', (r) =>
      (r.status?.parents ?? []).some((p) =>
        p.conditions.some((c) => c.type === 'Accepted' && c.status === 'True')
      )
    )
    await applyYaml(
      httpRoute({ ns: second, name: 'newer', backend: 'api', hostname, controller: 'contour' }),
      second
    )
    const result = await gate({
      routes: `httproute/${second}/newer`,
      timeout: '60s',
      'fail-fast': 'true'
    })
    expect(result.code, logOf(result)).toBe(1)
    const problem = problemsOf(await reportOf(result)).find((p) => p.reason === 'RuleMatchConflict')
    expect(problem?.title).toBe(
      `HTTPRoute ${first}/older already holds hostname ${hostname} and match "path PathPrefix /" on Gateway ${gw.namespace}/${gw.name}`
    )
  })

  it('9b. fail-fast keeps waiting through a BackendNotFound that the existing Service contradicts', async () => {
    const ns = await testNamespace('e2e-catchup')
    await createService(ns, 'backend', [8080])
    await applyYaml(
      httpRoute({ ns, name: 'web', backend: 'backend', gateway: 'other', controller: 'contour' }),
      ns
    )
    // the `other` Gateway's controller "has not caught up": BackendNotFound although backend:8080 exists
    await writeState(ns, 'web', 'failed', 1)

    // at the deadline: failed, and the report says the reason and the evidence disagree
    const stuck = await gate({ routes: `httproute/${ns}/web`, timeout: '6s', 'fail-fast': 'true' })
    expect(stuck.code, logOf(stuck)).toBe(1)
    const report = await reportOf(stuck)
    expect(report.timedOut).toBe(true)
    const problem = problemsOf(report).find((p) => p.reason === 'BackendNotFound')
    expect(problem?.title).toContain('BackendNotFound disagrees with what route-gate read')
    expect(problem?.evidence).toContain(
      `Service ${ns}/backend exists with port 8080 (rule 0 backendRef 0).`
    )
    expect(problem?.remediation).not.toMatch(/create/i)
    expect(logOf(stuck)).toContain('fail-fast keeps waiting')

    // the controller catches up while the gate waits: ready, not a fail-fast failure
    let healing: Promise<unknown> | undefined
    const healed = await gate(
      { routes: `httproute/${ns}/web`, timeout: '60s', 'fail-fast': 'true' },
      undefined,
      (out) => {
        if (healing === undefined && out.includes('fail-fast keeps waiting')) {
          healing = writeState(ns, 'web', 'ready', 1)
        }
      }
    )
    await healing
    expect(healed.code, logOf(healed)).toBe(0)
    expect(healed.outputs.verdict).toBe('ready')
  })
})

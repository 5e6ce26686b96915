// The end-to-end scenarios of the gate: the committed dist/index.js, started as GitHub's runner starts
// it, against the real kube-apiserver with Contour writing real status.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Report } from '../../src/model/types.ts'
import { runAction, type ActionResult } from '../helpers/action.ts'
import {
  applyYaml,
  clusterEnv,
  createService,
  gatewayParentRef,
  getRoute,
  testHostname,
  testNamespace,
  writeRouteStatus
} from '../helpers/cluster.ts'
import { writeState } from '../helpers/route-states.ts'
import { expectValidReport } from '../helpers/schema.ts'

const gw = () => clusterEnv().gateway

function httpRoute(o: {
  ns: string
  name: string
  backend: string
  backendNamespace?: string
  sectionName?: string
  gateway?: string
  hostname?: string
}): string {
  return `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: ${o.name}
spec:
  parentRefs:
  - name: ${o.gateway ?? gw().name}
    namespace: ${gw().namespace}${o.sectionName ? `\n    sectionName: ${o.sectionName}` : ''}
  hostnames: [${o.hostname ?? testHostname(o.ns, o.name)}]
  rules:
  - backendRefs:
    - name: ${o.backend}${o.backendNamespace ? `\n      namespace: ${o.backendNamespace}` : ''}
      port: 8080
`
}

function service(name: string, namespace?: string): string {
  return `apiVersion: v1
kind: Service
metadata:
  name: ${name}${namespace ? `\n  namespace: ${namespace}` : ''}
spec:
  ports:
  - name: http
    port: 8080
`
}

async function manifestDir(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'route-gate-e2e-'))
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text)
  return dir
}

function gate(inputs: Record<string, string>, cwd?: string): Promise<ActionResult> {
  return runAction(inputs, { env: { KUBECONFIG: clusterEnv().kubeconfig }, cwd })
}

/**
 * The gate started, and a promise that resolves once its log holds `text`: the Route listed and
 * judged in that state, so a change made from then on reaches it while it waits.
 */
function gateUntilLogged(
  inputs: Record<string, string>,
  text: string,
  cwd?: string
): { running: Promise<ActionResult>; logged: Promise<void> } {
  let seen: () => void = () => {}
  const logged = new Promise<void>((resolve) => (seen = resolve))
  const running = runAction(inputs, {
    env: { KUBECONFIG: clusterEnv().kubeconfig },
    cwd,
    onStdout: (soFar) => {
      if (soFar.includes(text)) seen()
    }
  })
  // a gate that ends before logging it fails the test through `running`, not by hanging here
  return { running, logged: Promise.race([logged, running.then(() => undefined)]) }
}

async function reportOf(result: ActionResult): Promise<Report> {
  const report = JSON.parse(await readFile(result.outputs['report-file']!, 'utf8')) as Report
  expectValidReport(report)
  expect(JSON.parse(result.outputs.report!)).toMatchObject({ verdict: report.verdict })
  return report
}

/** The step's log without the mask registrations, for assertion messages. */
const logOf = (result: ActionResult): string =>
  result.stdout
    .split('\n')
    .filter((line) => !line.startsWith('::add-mask::'))
    .join('\n')

/** The remediation must reach the reader in all three places: JSON report, job summary, annotation. */
function expectEverywhere(result: ActionResult, text: string): void {
  const annotations = result.stdout.split('\n').filter((l) => /^::error .*file=/.test(l))
  expect(annotations.join('\n')).toContain(text)
  expect(result.summary).toContain(text)
}

const problemsOf = (report: Report) =>
  report.routes.flatMap((r) => [...(r.problems ?? []), ...r.parents.flatMap((p) => p.problems)])

describe('gate through the committed Action bundle', () => {
  it('1. applies a Service and an HTTPRoute, Contour accepts it, exit 0 and ready=true', async () => {
    const ns = await testNamespace('e2e-ready')
    const dir = await manifestDir({
      'app.yaml': `${service('web')}---\n${httpRoute({ ns, name: 'web', backend: 'web' })}`
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
    const accepted = route?.parents[0]?.conditions?.find((c) => c.type === 'Accepted')
    expect(accepted).toMatchObject({ status: 'True', observedGeneration: route?.generation })
    expect(result.stdout).toMatch(
      /HTTPRoute .*\/web: parent .* → ready|HTTPRoute .*\/web: parent .* ready/
    )
  })

  it('2a. a missing backend heals when the Service appears while the gate waits', async () => {
    const ns = await testNamespace('e2e-heal')
    const dir = await manifestDir({ 'route.yaml': httpRoute({ ns, name: 'web', backend: 'late' }) })
    // the Service lands once the gate itself has seen the failure, not merely the cluster
    const { running, logged } = gateUntilLogged(
      { manifests: 'route.yaml', namespace: ns, timeout: '60s' },
      'failed (BackendNotFound)',
      dir
    )
    await logged
    await createService(ns, 'late', [{ port: 8080, name: 'http' }])
    const result = await running

    expect(result.code, logOf(result)).toBe(0)
    expect(result.outputs.ready).toBe('true')
    expect(result.stdout).toMatch(/failed \(BackendNotFound\) → ready after/)
  })

  it('2b. without the Service the gate fails at the deadline with the remediation', async () => {
    const ns = await testNamespace('e2e-missing')
    await createService(ns, 'checkout', [{ port: 8080, name: 'http' }])
    const dir = await manifestDir({
      'route.yaml': httpRoute({ ns, name: 'web', backend: 'checkout-svc' })
    })
    const result = await gate({ manifests: 'route.yaml', namespace: ns, timeout: '8s' }, dir)

    expect(result.code).toBe(1)
    expect(result.outputs).toMatchObject({ verdict: 'failed', ready: 'false' })
    expect(result.outputs['failed-routes']).toBe(`HTTPRoute ${ns}/web`)
    const problem = problemsOf(await reportOf(result)).find((p) => p.reason === 'BackendNotFound')
    expect(problem?.remediation).toContain('checkout')
    expectEverywhere(result, 'nearest existing Service')
    expect(result.summary).toContain('BackendNotFound')
    expect(result.summary).toContain('checkout-svc')
    expect(result.stdout).toMatch(/::error .*file=route\.yaml,line=1[,:]/)
  })

  it('3. cross-namespace backend: RefNotPermitted without a ReferenceGrant, ready with one', async () => {
    const ns = await testNamespace('e2e-refs')
    const backendNs = await testNamespace('e2e-backend')
    await createService(backendNs, 'api', [{ port: 8080, name: 'http' }])
    const route = httpRoute({ ns, name: 'web', backend: 'api', backendNamespace: backendNs })
    const dir = await manifestDir({ 'route.yaml': route })
    const denied = await gate({ manifests: 'route.yaml', namespace: ns, timeout: '8s' }, dir)

    expect(denied.code).toBe(1)
    const problem = problemsOf(await reportOf(denied)).find((p) => p.reason === 'RefNotPermitted')
    expect(problem?.fix).toMatch(/kind: ReferenceGrant/)
    expect(problem?.fix).toContain(`namespace: ${backendNs}`)
    expectEverywhere(denied, `Create the ReferenceGrant below in namespace ${backendNs}`)

    await applyYaml(problem!.fix!, backendNs)
    const allowed = await gate({ routes: `httproute/${ns}/web`, timeout: '60s' })
    expect(allowed.code, logOf(allowed)).toBe(0)
  })

  it('4. a listener that admits only its own namespace: NotAllowedByListeners', async () => {
    const ns = await testNamespace('e2e-listener')
    await createService(ns, 'web', [{ port: 8080, name: 'http' }])
    const dir = await manifestDir({
      'route.yaml': httpRoute({
        ns,
        name: 'web',
        backend: 'web',
        sectionName: 'same-ns',
        hostname: 'same.example.com'
      })
    })
    const result = await gate({ manifests: 'route.yaml', namespace: ns, timeout: '8s' }, dir)

    expect(result.code).toBe(1)
    const problem = problemsOf(await reportOf(result)).find(
      (p) => p.reason === 'NotAllowedByListeners'
    )
    expect(problem?.remediation).toContain('same-ns')
    expectEverywhere(result, 'attach to listener')
    expect(result.summary).toContain('NotAllowedByListeners')
  })

  it('5. a parentRef with a wrong sectionName: NoMatchingParent naming the listeners', async () => {
    const ns = await testNamespace('e2e-section')
    await createService(ns, 'web', [{ port: 8080, name: 'http' }])
    const dir = await manifestDir({
      'route.yaml': httpRoute({ ns, name: 'web', backend: 'web', sectionName: 'htp' })
    })
    const result = await gate({ manifests: 'route.yaml', namespace: ns, timeout: '8s' }, dir)

    expect(result.code).toBe(1)
    const problem = problemsOf(await reportOf(result)).find((p) => p.reason === 'NoMatchingParent')
    expect(problem?.remediation).toContain('http')
    expectEverywhere(result, 'Set sectionName to')
  })

  it('6. a parentRef to a Gateway that does not exist: NoStatus at the deadline', async () => {
    const ns = await testNamespace('e2e-nogw')
    await createService(ns, 'web', [{ port: 8080, name: 'http' }])
    const dir = await manifestDir({
      'route.yaml': httpRoute({ ns, name: 'web', backend: 'web', gateway: 'contuor' })
    })
    const result = await gate({ manifests: 'route.yaml', namespace: ns, timeout: '5s' }, dir)

    expect(result.code).toBe(1)
    const report = await reportOf(result)
    // waited out its whole timeout, by its own clock; how soon after it ends is a timing goal
    expect(report.timedOut).toBe(true)
    expect(report.elapsedMs).toBeGreaterThanOrEqual(5000)
    const problem = problemsOf(report).find((p) => p.reason === 'NoStatus')
    expect(problem?.severity).toBe('error')
    expect(problem?.remediation).toContain('contour')
    expectEverywhere(result, 'the nearest existing name')
  })

  it('7. a spec change under old status: waits for the new generation, never reports the old', async () => {
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

    const { running, logged } = gateUntilLogged(
      { routes: `httproute/${ns}/web`, timeout: '60s' },
      'pending (StaleStatus)'
    )
    await logged
    await writeRouteStatus('HTTPRoute', ns, 'web', ok(2), { controllerName: 'example.com/other' })
    const fresh = await running
    expect(fresh.code, logOf(fresh)).toBe(0)
    const report = await reportOf(fresh)
    expect(report.routes[0]?.generation).toBe(2)
    expect(report.routes[0]?.parents[0]?.conditions?.every((c) => c.observedGeneration === 2)).toBe(
      true
    )
  })

  it('8. GRPCRoute, TLSRoute and TCPRoute through Contour, UDPRoute through the status helper', async () => {
    const ns = await testNamespace('e2e-kinds')
    const { namespace, name } = gw()
    await createService(ns, 'grpc', [{ port: 8080, name: 'grpc' }])
    await createService(ns, 'tls', [{ port: 8443, name: 'tls' }])
    await createService(ns, 'tcp', [{ port: 9000, name: 'tcp' }])
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
`
    })
    const result = await gate({ manifests: 'routes.yaml', namespace: ns, timeout: '60s' }, dir)
    expect(result.code, logOf(result)).toBe(0)
    const report = await reportOf(result)
    expect(report.routes.map((r) => r.kind).sort()).toEqual(['GRPCRoute', 'TCPRoute', 'TLSRoute'])

    const udpParent = gatewayParentRef('other', 'udp')
    await applyYaml(
      `apiVersion: gateway.networking.k8s.io/v1alpha2
kind: UDPRoute
metadata: {name: dns}
spec:
  parentRefs: [${JSON.stringify(udpParent)}]
  rules: [{backendRefs: [{name: dns, port: 53}]}]
`,
      ns
    )
    const { running, logged } = gateUntilLogged(
      { routes: `udproute/${ns}/dns`, timeout: '60s' },
      'pending (NoStatus)'
    )
    await logged
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
      'route.yaml': httpRoute({ ns, name: 'web', backend: 'nothing' })
    })
    const result = await gate(
      { manifests: 'route.yaml', namespace: ns, timeout: '60s', 'fail-fast': 'true' },
      dir
    )
    expect(result.code).toBe(1)
    // ended by the failure, before its 60 s deadline by its own clock
    expect((await reportOf(result)).timedOut).toBe(false)
    expect(result.outputs.verdict).toBe('failed')
  })

  it('10. Contour RuleMatchConflict: the report names the older Route that holds the hostname and match', async () => {
    const first = await testNamespace('e2e-conflict-a')
    const second = await testNamespace('e2e-conflict-b')
    const hostname = testHostname(first, 'shared')
    await createService(first, 'api', [8080])
    await createService(second, 'api', [8080])
    await applyYaml(httpRoute({ ns: first, name: 'older', backend: 'api', hostname }), first)
    await waitForRouteCondition('HTTPRoute', first, 'older', (r) =>
      (r.status?.parents ?? []).some((p) =>
        p.conditions.some((c) => c.type === 'Accepted' && c.status === 'True')
      )
    )
    await applyYaml(httpRoute({ ns: second, name: 'newer', backend: 'api', hostname }), second)
    const result = await gate({
      routes: `httproute/${second}/newer`,
      timeout: '60s',
      'fail-fast': 'true'
    })
    expect(result.code, logOf(result)).toBe(1)
    const problem = problemsOf(await reportOf(result)).find((p) => p.reason === 'RuleMatchConflict')
    expect(problem?.title).toBe(
      `HTTPRoute ${first}/older already holds hostname ${hostname} and match "path PathPrefix /" on Gateway ${gw().namespace}/${gw().name}`
    )
  })

  it('9b. fail-fast keeps waiting through a BackendNotFound that the existing Service contradicts', async () => {
    const ns = await testNamespace('e2e-catchup')
    await createService(ns, 'backend', [8080])
    await applyYaml(httpRoute({ ns, name: 'web', backend: 'backend', gateway: 'other' }), ns)
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
    const running = gate({ routes: `httproute/${ns}/web`, timeout: '60s', 'fail-fast': 'true' })
    await sleep(4000)
    await writeState(ns, 'web', 'ready', 1)
    const healed = await running
    expect(healed.code, logOf(healed)).toBe(0)
    expect(healed.outputs.verdict).toBe('ready')
  })
})

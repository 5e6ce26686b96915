// A listener its controller refused, on the real controllers (issue 21 item 1): Traefik serves a
// listener only on a port it has an entryPoint for and refuses any other (listener Accepted=False,
// PortUnavailable), so a Route attached there gets NotAllowedByListeners; Envoy Gateway and Contour
// take a listener on any port. The same listener shape (Contour's `http`: HTTP on port 80, from All,
// a port none of Traefik's entryPoints serves) goes to each controller, and route-gate must say what
// the controller wrote: the refused listener, its controller and reason in the title, the fix for
// that reason first, and never "use a controller that supports". Every expectation is read from the
// status the controllers wrote, waited for at the generation they observed.
import { mkdtemp, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it, onTestFinished } from 'vitest'
import type { ParentResult, Problem, Report } from '../../src/model/types.ts'
import { playEnvoyDataPlane } from '../cluster/controllers.ts'
import { statusCode } from '../cluster/fixtures.ts'
import type { ListenerInfo } from '../cluster/env.ts'
import { runCli } from '../helpers/action.ts'
import {
  applyYaml,
  clusterEnv,
  controller,
  createService,
  kube,
  testHostname,
  testNamespace,
  waitForRouteCondition
} from '../helpers/cluster.ts'
import type { ControllerId, RouteRead, RouteStatusCondition } from '../helpers/cluster.ts'
import { expectValidReport } from '../helpers/schema.ts'

const GATEWAY_GROUP = 'gateway.networking.k8s.io'
/** Upper bound for a controller to write status; each wait returns as soon as it is written. */
const WRITE_MS = 30_000
const NEVER_ANOTHER_CONTROLLER = /use a controller that supports/i

interface ListenerStatus {
  name: string
  supportedKinds?: { group?: string; kind: string }[]
  conditions?: RouteStatusCondition[]
}

interface GatewayRead {
  metadata: { name: string; namespace: string; generation: number }
  spec: { listeners: ListenerInfo[] }
  status?: { conditions?: RouteStatusCondition[]; listeners?: ListenerStatus[] }
}

/** The shape every controller gets: the listener Contour's own Gateway has, HTTP on port 80. */
function shape(): ListenerInfo {
  const http = controller('contour').listeners.find((l) => l.name === 'http')
  if (http === undefined) throw new Error("the Contour Gateway has no listener 'http' in env.json")
  return http
}

/** Ports Traefik has an entryPoint for: one per listener of its Gateway, and its ping. */
function traefikPorts(): number[] {
  const ping = Number(new URL(clusterEnv().health.traefik).port)
  return [...controller('traefik').listeners.map((l) => l.port), ping]
}

/** The port of one of Traefik's entryPoints (a listener of its own Gateway). */
function traefikPort(listener: string): number {
  const found = controller('traefik').listeners.find((l) => l.name === listener)
  if (found === undefined) throw new Error(`Traefik has no entryPoint '${listener}' in env.json`)
  return found.port
}

/**
 * Undo steps for what a test creates, run after it newest first (a Route before its Gateway, every
 * object before its namespace). Deleted namespaces stay Terminating (no namespace controller), empty.
 */
function cleanup(): (undo: () => Promise<unknown>) => void {
  const steps: (() => Promise<unknown>)[] = []
  onTestFinished(async () => {
    const failures: unknown[] = []
    for (const step of steps.reverse()) {
      await step().catch((error: unknown) => {
        if (statusCode(error) !== 404) failures.push(error)
      })
    }
    if (failures.length > 0) throw new AggregateError(failures, 'cleanup failed')
  })
  return (undo) => {
    steps.push(undo)
  }
}

async function namespace(prefix: string, undo: ReturnType<typeof cleanup>): Promise<string> {
  const ns = await testNamespace(prefix)
  undo(() => kube().core.deleteNamespace({ name: ns }))
  return ns
}

async function service(ns: string, undo: ReturnType<typeof cleanup>): Promise<void> {
  // with the EndpointSlice a controller-manager would write: Traefik needs it for ResolvedRefs
  await createService(ns, 'web', [{ port: 8080, name: 'http' }], { endpoints: true })
  undo(() => kube().core.deleteNamespacedService({ namespace: ns, name: 'web' }))
  undo(() => kube().discovery.deleteNamespacedEndpointSlice({ namespace: ns, name: 'web-1' }))
}

const gatewayCoordinates = (namespace: string, name: string) => ({
  group: GATEWAY_GROUP,
  version: 'v1',
  namespace,
  plural: 'gateways',
  name
})

function gatewayYaml(name: string, gatewayClass: string, listeners: ListenerInfo[]): string {
  return `apiVersion: ${GATEWAY_GROUP}/v1
kind: Gateway
metadata: {name: ${name}}
spec:
  gatewayClassName: ${gatewayClass}
  listeners: ${JSON.stringify(listeners)}
`
}

/** Applies (or changes) Gateway `name` in `ns`; deleted after the test. */
async function applyGateway(
  ns: string,
  name: string,
  gatewayClass: string,
  listeners: ListenerInfo[],
  undo?: ReturnType<typeof cleanup>
): Promise<void> {
  await applyYaml(gatewayYaml(name, gatewayClass, listeners), ns)
  undo?.(() => kube().custom.deleteNamespacedCustomObject(gatewayCoordinates(ns, name)))
}

async function getGateway(ns: string, name: string): Promise<GatewayRead> {
  return (await kube().custom.getNamespacedCustomObject(
    gatewayCoordinates(ns, name)
  )) as GatewayRead
}

/** Polls the Gateway until `predicate` holds; on timeout the error carries the last status seen. */
async function waitForGateway(
  ns: string,
  name: string,
  predicate: (gateway: GatewayRead) => boolean
): Promise<GatewayRead> {
  const deadline = Date.now() + WRITE_MS
  for (;;) {
    const gateway = await getGateway(ns, name)
    if (predicate(gateway)) return gateway
    if (Date.now() > deadline) {
      throw new Error(
        `Gateway ${ns}/${name}: condition not met after ${WRITE_MS} ms; last status: ${JSON.stringify(gateway.status)}`
      )
    }
    await sleep(200)
  }
}

const conditionOf = <C extends { type: string }>(conditions: C[] | undefined, type: string) =>
  conditions?.find((c) => c.type === type)

/** The controller has written Accepted for every listener of the Gateway's current generation. */
function listenersWritten(gateway: GatewayRead): boolean {
  const generation = gateway.metadata.generation
  return gateway.spec.listeners.every(
    (l) =>
      conditionOf(listenerStatus(gateway, l.name).conditions, 'Accepted')?.observedGeneration ===
      generation
  )
}

function listenerStatus(gateway: GatewayRead, name: string): ListenerStatus {
  return gateway.status?.listeners?.find((l) => l.name === name) ?? { name }
}

/** The condition a controller refuses a listener with: Accepted or Programmed False (not Pending). */
function refusalOf(status: ListenerStatus): RouteStatusCondition | undefined {
  return ['Accepted', 'Programmed']
    .map((type) => conditionOf(status.conditions, type))
    .find((c) => c?.status === 'False' && c.reason !== 'Pending')
}

type RouteParent = { namespace: string; name: string; sectionName?: string }

function routeYaml(ns: string, parentRef: RouteParent): string {
  return `apiVersion: ${GATEWAY_GROUP}/v1
kind: HTTPRoute
metadata: {name: web, namespace: ${ns}}
spec:
  parentRefs: [${JSON.stringify({ group: GATEWAY_GROUP, kind: 'Gateway', ...parentRef })}]
  hostnames: [${testHostname(ns)}]
  rules: [{backendRefs: [{name: web, port: 8080}]}]
`
}

/**
 * `route-gate predict` of the Route's manifest against a `route-gate dump` of this moment: the
 * pull request's view, where the Route's own status is not evidence.
 */
async function predictFromDump(
  ns: string,
  parentRef: RouteParent
): Promise<ParentResult | undefined> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'route-gate-refused-predict-'))
  const kubeconfig = clusterEnv().kubeconfig
  const dumped = await runCli(['dump', '-o', 'dump.yaml', '--kubeconfig', kubeconfig], { cwd: dir })
  expect(dumped.code, dumped.stderr).toBe(0)
  await writeFile(path.join(dir, 'route.yaml'), routeYaml(ns, parentRef))
  const predicted = await runCli(
    ['predict', '--manifests', 'route.yaml', '--from-file', 'dump.yaml', '-o', 'json'],
    { cwd: dir }
  )
  const report = JSON.parse(predicted.stdout) as Report
  expectValidReport(report)
  return report.routes[0]?.parents[0]
}

/** An HTTPRoute `web` in `ns` to the Gateway `parentRef` names, with a hostname of its own. */
async function applyRoute(
  ns: string,
  parentRef: { namespace: string; name: string; sectionName?: string },
  undo: ReturnType<typeof cleanup>
): Promise<void> {
  await applyYaml(routeYaml(ns, parentRef), ns)
  undo(() =>
    kube().custom.deleteNamespacedCustomObject({
      group: GATEWAY_GROUP,
      version: 'v1',
      namespace: ns,
      plural: 'httproutes',
      name: 'web'
    })
  )
}

/** The controller's entry for `gateway`, written for the Route's current generation. */
function entryOf(route: RouteRead, id: ControllerId, gateway: string) {
  return route.status?.parents.find(
    (p) =>
      p.controllerName === controller(id).controllerName &&
      p.parentRef.name === gateway &&
      conditionOf(p.conditions, 'Accepted')?.observedGeneration === route.metadata.generation
  )
}

async function waitForEntry(ns: string, id: ControllerId, gateway: string) {
  const route = await waitForRouteCondition(
    'HTTPRoute',
    ns,
    'web',
    (r) => entryOf(r, id, gateway) !== undefined,
    WRITE_MS
  )
  return entryOf(route, id, gateway)!
}

/** `route-gate check` (dist/cli.js) on the Route, JSON report on stdout. */
async function check(ns: string, timeout: string) {
  const result = await runCli([
    'check',
    '--routes',
    `httproute/${ns}/web`,
    '--kubeconfig',
    clusterEnv().kubeconfig,
    '--timeout',
    timeout,
    '-o',
    'json'
  ])
  let report: Report
  try {
    report = JSON.parse(result.stdout) as Report
  } catch {
    throw new Error(`check exited ${result.code} without a JSON report: ${result.stderr}`)
  }
  expectValidReport(report)
  expect(`${result.stdout}\n${result.stderr}`).not.toMatch(NEVER_ANOTHER_CONTROLLER)
  return { result, report, parent: report.routes[0]?.parents[0] }
}

/** What route-gate should open the remediation with, for the reason the controller gave. */
function leadingFix(reason: string, listener: string, port: number): string {
  const fixes: Record<string, string> = {
    PortUnavailable: `Expose port ${port} on the controller (for Traefik, an entryPoint on port ${port}), or move listener ${listener} to a port the controller serves`,
    UnsupportedProtocol: `Set the protocol of listener ${listener} to one the controller supports`
  }
  const fix = fixes[reason]
  if (fix === undefined) {
    throw new Error(`Traefik refused the listener with ${reason}, which this test does not expect`)
  }
  return fix
}

/** "Accepted=False (PortUnavailable): Cannot find entryPoint …" as route-gate quotes it. */
function quoted(c: RouteStatusCondition): string {
  return `${c.type}=${c.status} (${c.reason})${c.message ? `: ${c.message}` : ''}`
}

/**
 * The failed parent's problem for the attachment reason its owner wrote, as the gate read it (the
 * report's conditions: what the controller had written when the gate judged).
 */
function refusalProblem(parent: ParentResult | undefined): Problem {
  const context = JSON.stringify(parent)
  expect(parent?.verdict, context).toBe('failed')
  const accepted = conditionOf(parent?.conditions, 'Accepted')
  expect(accepted?.status, context).toBe('False')
  expect(['NotAllowedByListeners', 'NoMatchingParent'], context).toContain(accepted?.reason)
  const problem = parent?.problems.find((p) => p.reason === accepted?.reason)
  expect(problem, context).toBeDefined()
  return problem!
}

/** The remediation opens with `fix` (shown whole when it does not). */
function expectLeadingFix(problem: Problem, fix: string): void {
  expect(problem.remediation?.slice(0, fix.length), problem.remediation).toBe(fix)
}

function errorsOf(problems: Problem[] | undefined): Problem[] {
  return (problems ?? []).filter((p) => p.severity === 'error')
}

describe("one listener on a port Traefik has no entryPoint for (Contour's http: HTTP, port 80, from All)", () => {
  it('traefik refuses it; route-gate names the listener, Traefik and its reason, leads with the fix for that reason, and the moved listener turns ready', async () => {
    const listener = shape()
    expect(traefikPorts()).not.toContain(listener.port)
    const undo = cleanup()
    const ns = await namespace('refused-tr', undo)
    await service(ns, undo)
    const { gatewayClass, controllerName } = controller('traefik')
    await applyGateway(ns, 'edge', gatewayClass, [listener], undo)
    await applyRoute(ns, { namespace: ns, name: 'edge', sectionName: listener.name }, undo)

    const gateway = await waitForGateway(ns, 'edge', listenersWritten)
    const refusal = refusalOf(listenerStatus(gateway, listener.name))
    expect(refusal, JSON.stringify(gateway.status)).toBeDefined()
    const written = await waitForEntry(ns, 'traefik', 'edge')

    // predict, from a dump of this moment, says what Traefik wrote: the refused listener admits nothing
    const predicted = await predictFromDump(ns, {
      namespace: ns,
      name: 'edge',
      sectionName: listener.name
    })
    const context = JSON.stringify({ predicted, written })
    expect(predicted?.verdict, context).toBe('failed')
    expect(conditionOf(predicted?.conditions, 'Accepted'), context).toMatchObject({
      status: conditionOf(written.conditions, 'Accepted')?.status,
      reason: conditionOf(written.conditions, 'Accepted')?.reason
    })
    expect(conditionOf(predicted?.conditions, 'ResolvedRefs')?.status, context).toBe(
      conditionOf(written.conditions, 'ResolvedRefs')?.status
    )

    const { result, parent } = await check(ns, '3s')
    expect(result.code, result.stderr).toBe(1)
    expect(parent?.controllerName).toBe(controllerName)
    const problem = refusalProblem(parent)
    expect(problem.title).toBe(
      `Gateway ${ns}/edge: listener ${listener.name} was refused by Traefik (${controllerName}): ${quoted(refusal!)}`
    )
    expectLeadingFix(problem, leadingFix(refusal!.reason, listener.name, listener.port))
    expect(problem?.evidence?.join('\n')).toContain(quoted(refusal!))

    // the remediation holds: the listener moved to the port of Traefik's http entryPoint is served
    await applyGateway(ns, 'edge', gatewayClass, [{ ...listener, port: traefikPort('http') }])
    const moved = await waitForGateway(
      ns,
      'edge',
      (g) => g.metadata.generation > gateway.metadata.generation && listenersWritten(g)
    )
    expect(refusalOf(listenerStatus(moved, listener.name))).toBeUndefined()
    const fixed = await check(ns, '60s')
    expect(fixed.result.code, fixed.result.stdout).toBe(0)
    expect(fixed.parent?.verdict).toBe('ready')
  })

  it('envoy-gateway accepts the same Gateway (a class of its own): the Route is ready', async () => {
    const listener = shape()
    const undo = cleanup()
    const ns = await namespace('refused-eg', undo)
    await service(ns, undo)
    const { gatewayClass, controllerName } = controller('envoy-gateway')
    await applyGateway(ns, 'edge', gatewayClass, [listener], undo)
    // its Gateway is Programmed once the Envoy Service and Deployment it provisions report ready:
    // nothing runs them here, so their statuses are written as cluster:up does for its own Gateway
    await playEnvoyDataPlane(
      kube().config,
      { namespace: ns, name: 'edge', gatewayClass, controllerName, listeners: [listener] },
      WRITE_MS
    )
    await applyRoute(ns, { namespace: ns, name: 'edge', sectionName: listener.name }, undo)

    const gateway = await waitForGateway(
      ns,
      'edge',
      (g) =>
        listenersWritten(g) &&
        conditionOf(g.status?.conditions, 'Programmed')?.status === 'True' &&
        conditionOf(g.status?.conditions, 'Programmed')?.observedGeneration ===
          g.metadata.generation
    )
    const status = listenerStatus(gateway, listener.name)
    expect(refusalOf(status), JSON.stringify(status)).toBeUndefined()
    expect(conditionOf(status.conditions, 'Accepted')?.status).toBe('True')
    expect(status.supportedKinds?.map((k) => k.kind)).toContain('HTTPRoute')
    const written = await waitForEntry(ns, 'envoy-gateway', 'edge')
    expect(conditionOf(written.conditions, 'Accepted')?.status).toBe('True')

    const { result, parent } = await check(ns, '60s')
    expect(result.code, result.stdout).toBe(0)
    expect(parent).toMatchObject({ verdict: 'ready', controllerName })
    expect(parent?.problems).toEqual([])
  })

  it('contour accepts it on its own Gateway (static mode serves that one only): the Route is ready', async () => {
    const listener = shape()
    const undo = cleanup()
    const ns = await namespace('refused-ct', undo)
    await service(ns, undo)
    const { gateway: ref, controllerName } = controller('contour')
    await applyRoute(ns, { ...ref, sectionName: listener.name }, undo)

    const gateway = await waitForGateway(ref.namespace, ref.name, listenersWritten)
    const spec = gateway.spec.listeners.find((l) => l.name === listener.name)
    expect(spec).toMatchObject({ protocol: listener.protocol, port: listener.port })
    const status = listenerStatus(gateway, listener.name)
    expect(refusalOf(status), JSON.stringify(status)).toBeUndefined()
    expect(conditionOf(status.conditions, 'Accepted')?.status).toBe('True')
    await waitForEntry(ns, 'contour', ref.name)

    // another test may narrow this shared listener for a moment (monitor): the gate waits it out
    const { result, parent } = await check(ns, '60s')
    expect(result.code, result.stdout).toBe(0)
    expect(parent).toMatchObject({ verdict: 'ready', controllerName })
    expect(errorsOf(parent?.problems)).toEqual([])
  })
})

describe('a parentRef without sectionName selecting a refused listener and one that does not admit the Route', () => {
  it.each<[string, () => ListenerInfo, RegExp, string]>([
    [
      'namespaces from Same, the Route in another namespace',
      () => ({
        name: 'same-ns',
        protocol: 'HTTP',
        port: traefikPort('http'),
        allowedRoutes: { namespaces: { from: 'Same' } }
      }),
      /change listener same-ns of Gateway .* to admit namespace/,
      '; and listener same-ns does not allow this HTTPRoute from namespace'
    ],
    [
      'kinds GRPCRoute only',
      () => ({
        name: 'grpc-only',
        protocol: 'HTTP',
        port: traefikPort('http'),
        allowedRoutes: { namespaces: { from: 'All' }, kinds: [{ kind: 'GRPCRoute' }] }
      }),
      /add kind HTTPRoute to allowedRoutes\.kinds of listener grpc-only/,
      // the namespace is admitted: the kind is the cause
      '; and listener grpc-only does not take kind HTTPRoute'
    ]
  ])(
    'traefik, the other listener with %s: the title says both',
    async (_, other, remedy, cause) => {
      const refusedListener = shape()
      expect(traefikPorts()).not.toContain(refusedListener.port)
      const undo = cleanup()
      const gatewayNs = await namespace('refused-mix-gw', undo)
      const ns = await namespace('refused-mix', undo)
      await service(ns, undo)
      const { gatewayClass, controllerName } = controller('traefik')
      const denying = other()
      await applyGateway(gatewayNs, 'edge', gatewayClass, [refusedListener, denying], undo)
      await applyRoute(ns, { namespace: gatewayNs, name: 'edge' }, undo)

      const gateway = await waitForGateway(gatewayNs, 'edge', listenersWritten)
      const refusal = refusalOf(listenerStatus(gateway, refusedListener.name))
      expect(refusal, JSON.stringify(gateway.status)).toBeDefined()
      // Traefik serves the other listener: it is its allowedRoutes, not Traefik, that keeps the Route out
      expect(refusalOf(listenerStatus(gateway, denying.name))).toBeUndefined()
      await waitForEntry(ns, 'traefik', 'edge')

      const { result, parent } = await check(ns, '3s')
      expect(result.code, result.stderr).toBe(1)
      const problem = refusalProblem(parent)
      const both = `${JSON.stringify(gateway.status)}\n${problem.title}`
      expect(problem.title, both).toContain(
        `Gateway ${gatewayNs}/edge: listener ${refusedListener.name} was refused by Traefik (${controllerName}): ${quoted(refusal!)}`
      )
      expect(problem.title, both).toContain(cause)
      expect(problem.evidence?.join('\n')).not.toMatch(
        new RegExp(`Listener ${refusedListener.name} .*takes no Route kind`)
      )
      expectLeadingFix(
        problem,
        leadingFix(refusal!.reason, refusedListener.name, refusedListener.port)
      )
      expect(problem.remediation).toMatch(remedy)
    }
  )
})

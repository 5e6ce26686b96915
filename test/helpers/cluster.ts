// Helpers for integration tests against the real control plane that test/cluster/global-setup.ts
// brings up. A bare apiserver has no namespace controller, so namespaces are unique per test and are
// never waited on for deletion, and Routes from earlier tests and runs stay on the Gateway. Contour
// rejects an HTTPRoute whose hostname and match equal an older one's (Accepted=False,
// RuleMatchConflict), so every HTTPRoute/GRPCRoute on the Contour Gateway needs a hostname of its own:
// use testHostname().
import { randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import {
  CoreV1Api,
  CustomObjectsApi,
  DiscoveryV1Api,
  KubeConfig,
  KubernetesObjectApi,
  PatchStrategy,
  loadAllYaml
} from '@kubernetes/client-node'
import type { KubernetesObject } from '@kubernetes/client-node'
import { ENV_FILE_VARIABLE, envFilePath, readClusterEnv } from '../cluster/env.ts'
import type { ClusterEnv, ControllerId, ControllerInfo } from '../cluster/env.ts'
import { GATEWAY_GROUP, statusCode } from '../cluster/fixtures.ts'
import type { RouteKind } from '../../src/model/types.ts'

export type { ClusterEnv, ControllerId, ControllerInfo } from '../cluster/env.ts'

const FIELD_MANAGER = 'route-gate-tests'

const PLURAL: Record<RouteKind, string> = {
  HTTPRoute: 'httproutes',
  GRPCRoute: 'grpcroutes',
  TLSRoute: 'tlsroutes',
  TCPRoute: 'tcproutes',
  UDPRoute: 'udproutes'
}

export function clusterEnv(): ClusterEnv {
  const file = process.env[ENV_FILE_VARIABLE] ?? envFilePath()
  const env = readClusterEnv(file)
  if (env === undefined) {
    throw new Error(
      `no test cluster recorded at ${file}; run the integration project or npm run cluster:up`
    )
  }
  return env
}

/** The running controller `name` with its GatewayClass, Gateway and listeners. */
export function controller(name: ControllerId): ControllerInfo {
  const found = clusterEnv().controllers.find((c) => c.name === name)
  if (found === undefined) throw new Error(`controller ${name} is not in the cluster's env.json`)
  return found
}

export interface Kube {
  config: KubeConfig
  core: CoreV1Api
  custom: CustomObjectsApi
  discovery: DiscoveryV1Api
  objects: KubernetesObjectApi
}

let cached: Kube | undefined

export function kube(): Kube {
  if (cached === undefined) {
    const config = new KubeConfig()
    config.loadFromFile(clusterEnv().kubeconfig)
    cached = {
      config,
      core: config.makeApiClient(CoreV1Api),
      custom: config.makeApiClient(CustomObjectsApi),
      discovery: config.makeApiClient(DiscoveryV1Api),
      objects: KubernetesObjectApi.makeApiClient(config)
    }
  }
  return cached
}

/** Creates a namespace with a unique name (`<prefix>-<random>`) and returns the name. */
export async function testNamespace(
  prefix: string,
  labels?: Record<string, string>
): Promise<string> {
  const name = `${prefix}-${randomBytes(4).toString('hex')}`
  await kube().core.createNamespace({ body: { metadata: { name, labels } } })
  return name
}

/**
 * Server-side applies every document of `text` (namespace filled in where absent), so applying a
 * changed manifest again updates it like `kubectl apply --server-side` would.
 */
export async function applyYaml(text: string, namespace: string): Promise<KubernetesObject[]> {
  const docs = loadAllYaml(text).filter(
    (doc): doc is KubernetesObject => typeof doc === 'object' && doc !== null
  )
  const applied: KubernetesObject[] = []
  for (const doc of docs) {
    applied.push(await serverSideApply({ ...doc, metadata: { namespace, ...doc.metadata } }))
  }
  return applied
}

/** One object, server-side applied as `fieldManager` (the tests' by default), forced. */
export function serverSideApply(
  object: KubernetesObject,
  fieldManager = FIELD_MANAGER
): Promise<KubernetesObject> {
  return kube().objects.patch(
    object,
    undefined,
    undefined,
    fieldManager,
    true,
    PatchStrategy.ServerSideApply
  )
}

/** A hostname no other test uses, e.g. `web.harness-1a2b3c4d.example.com` (see the note above). */
export function testHostname(namespace: string, label = 'app'): string {
  return `${label}.${namespace}.example.com`
}

export interface ServicePort {
  port: number
  name?: string
  protocol?: 'TCP' | 'UDP'
}

/**
 * Where EndpointSlices written by the tests point: TEST-NET-1 (RFC 5737), an address nothing serves
 * and no test sends traffic to. Controllers only read it; a test that needs traffic through Traefik
 * creates its own backend in a network namespace.
 */
export const UNSERVED_ENDPOINT = '192.0.2.1'

/**
 * A ClusterIP Service without selector: enough for Contour, which only checks the Service and port
 * exist. No controller-manager runs, so nothing creates EndpointSlices: with `endpoints`, the helper
 * creates the one a controller would (Traefik reports BackendNotFound without one, Envoy Gateway
 * BackendsAvailable=False).
 */
export async function createService(
  namespace: string,
  name: string,
  ports: (number | ServicePort)[],
  options: { endpoints?: boolean } = {}
): Promise<void> {
  const specPorts = ports.map((p, i) => {
    const port = typeof p === 'number' ? { port: p } : p
    return { name: port.name ?? `p${i}`, port: port.port, protocol: port.protocol ?? 'TCP' }
  })
  await kube().core.createNamespacedService({
    namespace,
    body: { metadata: { name }, spec: { ports: specPorts } }
  })
  if (options.endpoints !== true) return
  await kube().discovery.createNamespacedEndpointSlice({
    namespace,
    body: {
      metadata: { name: `${name}-1`, labels: { 'kubernetes.io/service-name': name } },
      addressType: 'IPv4',
      endpoints: [{ addresses: [UNSERVED_ENDPOINT], conditions: { ready: true } }],
      ports: specPorts.map((p) => ({ name: p.name, port: p.port, protocol: p.protocol }))
    }
  })
}

export interface RouteStatusCondition {
  type: string
  status: 'True' | 'False' | 'Unknown'
  reason: string
  message?: string
  observedGeneration?: number
  lastTransitionTime?: string
}

export interface RouteParentStatus {
  parentRef: Record<string, unknown>
  controllerName?: string
  conditions: RouteStatusCondition[]
}

export interface RouteStatus {
  parents: RouteParentStatus[]
}

/** A Route as read back; status is whatever a controller (or a test) wrote. */
export interface RouteRead extends KubernetesObject {
  metadata: NonNullable<KubernetesObject['metadata']> & {
    generation: number
    resourceVersion: string
  }
  spec: { parentRefs?: Record<string, unknown>[] } & Record<string, unknown>
  status?: RouteStatus
}

function routeCoordinates(
  kind: RouteKind,
  namespace: string,
  name: string
): { group: string; version: string; namespace: string; plural: string; name: string } {
  return { group: GATEWAY_GROUP, version: 'v1', namespace, plural: PLURAL[kind], name }
}

export async function getRoute(
  kind: RouteKind,
  namespace: string,
  name: string
): Promise<RouteRead> {
  return (await kube().custom.getNamespacedCustomObject(
    routeCoordinates(kind, namespace, name)
  )) as RouteRead
}

/**
 * Writes `status` through the status subresource the way a controller does: PUT with the current
 * resourceVersion, re-read and retried on 409 Conflict. Conditions get the fields the CRD requires
 * (message, lastTransitionTime) when the test leaves them out; observedGeneration is left exactly as
 * given, so "missing observedGeneration" stays missing.
 */
export async function writeRouteStatus(
  kind: RouteKind,
  namespace: string,
  name: string,
  status: RouteStatus,
  options: { controllerName: string }
): Promise<RouteRead> {
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z')
  const parents = status.parents.map((parent) => ({
    ...parent,
    controllerName: parent.controllerName ?? options.controllerName,
    conditions: parent.conditions.map((c) => ({ message: '', lastTransitionTime: now, ...c }))
  }))
  for (let attempt = 1; ; attempt++) {
    const current = await getRoute(kind, namespace, name)
    try {
      return (await kube().custom.replaceNamespacedCustomObjectStatus({
        ...routeCoordinates(kind, namespace, name),
        body: { ...current, status: { ...current.status, parents } }
      })) as RouteRead
    } catch (error) {
      if (statusCode(error) !== 409 || attempt >= 10) throw error
    }
  }
}

/**
 * A parentRef to a controller's Gateway (that controller writes status for it) or to `other` (no
 * controller owns its class, so status a test writes there stays as written).
 */
export function gatewayParentRef(
  gateway: ControllerId | 'other',
  sectionName?: string
): Record<string, string> {
  const { namespace, name } =
    gateway === 'other' ? clusterEnv().otherGateway : controller(gateway).gateway
  return {
    group: GATEWAY_GROUP,
    kind: 'Gateway',
    namespace,
    name,
    ...(sectionName ? { sectionName } : {})
  }
}

/** The condition of `type` in the status entry for the parent Gateway named `parentName`. */
export function parentCondition(
  route: RouteRead,
  parentName: string,
  type: string
): RouteStatusCondition | undefined {
  const entry = route.status?.parents.find((p) => p.parentRef.name === parentName)
  return entry?.conditions.find((c) => c.type === type)
}

/** Polls the Route until `predicate` holds; on timeout the error carries the last status seen. */
export async function waitForRouteCondition(
  kind: RouteKind,
  namespace: string,
  name: string,
  predicate: (route: RouteRead) => boolean,
  timeoutMs = 30_000
): Promise<RouteRead> {
  const deadline = Date.now() + timeoutMs
  let last: RouteRead | undefined
  for (;;) {
    try {
      last = await getRoute(kind, namespace, name)
      if (predicate(last)) return last
    } catch (error) {
      if (statusCode(error) !== 404) throw error
    }
    if (Date.now() > deadline) {
      throw new Error(
        `${kind} ${namespace}/${name}: condition not met after ${timeoutMs} ms; last status: ${JSON.stringify(last?.status)}`
      )
    }
    await sleep(200)
  }
}

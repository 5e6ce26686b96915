// What the test cluster holds before any test runs: the Gateway API CRDs (experimental channel, with
// its ValidatingAdmissionPolicy), Contour's and Envoy Gateway's CRDs, a Gateway per controller
// (Contour, Envoy Gateway, Traefik) and one that no controller owns.
import { readFileSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import {
  ApiException,
  ApiextensionsV1Api,
  CustomObjectsApi,
  KubernetesObjectApi,
  loadAllYaml
} from '@kubernetes/client-node'
import type { KubeConfig, KubernetesObject } from '@kubernetes/client-node'
import type { GatewayInfo, ListenerInfo } from './env.ts'

export const GATEWAY_GROUP = 'gateway.networking.k8s.io'
export const GATEWAY_NAMESPACE = 'gw-system'
export const CONTOUR_CONTROLLER = 'projectcontour.io/gateway-controller'
export const ENVOY_GATEWAY_CONTROLLER = 'gateway.envoyproxy.io/gatewayclass-controller'
export const TRAEFIK_CONTROLLER = 'traefik.io/gateway-controller'
/** Envoy Gateway's own namespace (ENVOY_GATEWAY_NAMESPACE): its Secrets and the objects it provisions */
export const ENVOY_GATEWAY_NAMESPACE = 'envoy-gateway-system'

const fromAll = { namespaces: { from: 'All' as const } }

export const CONTOUR_GATEWAY: GatewayInfo = {
  namespace: GATEWAY_NAMESPACE,
  name: 'contour',
  gatewayClass: 'contour',
  controllerName: CONTOUR_CONTROLLER,
  listeners: standardListeners({ http: 80, sameNs: 8080, tls: 443, tcp: 9000 })
}

/** The listeners every controller's Gateway has, on the given ports (names are what tests use). */
function standardListeners(ports: {
  http: number
  sameNs: number
  tls: number
  tcp: number
}): ListenerInfo[] {
  return [
    { name: 'http', protocol: 'HTTP', port: ports.http, allowedRoutes: fromAll },
    {
      name: 'same-ns',
      protocol: 'HTTP',
      port: ports.sameNs,
      hostname: 'same.example.com',
      allowedRoutes: { namespaces: { from: 'Same' as const } }
    },
    {
      name: 'tls',
      protocol: 'TLS',
      port: ports.tls,
      allowedRoutes: { ...fromAll, kinds: [{ kind: 'TLSRoute' }] }
    },
    {
      name: 'tcp',
      protocol: 'TCP',
      port: ports.tcp,
      allowedRoutes: { ...fromAll, kinds: [{ kind: 'TCPRoute' }] }
    }
  ]
}

/** Envoy Gateway serves every Gateway of its class; its Envoy never runs, so the ports bind nothing. */
export const ENVOY_GATEWAY_GATEWAY: GatewayInfo = {
  namespace: GATEWAY_NAMESPACE,
  name: 'envoy-gateway',
  gatewayClass: 'envoy-gateway',
  controllerName: ENVOY_GATEWAY_CONTROLLER,
  listeners: [
    ...standardListeners({ http: 80, sameNs: 8080, tls: 443, tcp: 9000 }),
    {
      name: 'udp',
      protocol: 'UDP',
      port: 5353,
      allowedRoutes: { ...fromAll, kinds: [{ kind: 'UDPRoute' }] }
    }
  ]
}

/**
 * Traefik is its own data plane: each listener's port is an entry point it binds (on 127.0.0.1), so
 * the ports are picked free per cluster. Traefik has no UDPRoute support.
 */
export function traefikGateway(ports: {
  http: number
  sameNs: number
  tls: number
  tcp: number
}): GatewayInfo {
  return {
    namespace: GATEWAY_NAMESPACE,
    name: 'traefik',
    gatewayClass: 'traefik',
    controllerName: TRAEFIK_CONTROLLER,
    listeners: standardListeners(ports)
  }
}

/** No controller owns class `other`, so whatever status a test writes for its Routes stays put. */
export const OTHER_GATEWAY: GatewayInfo = {
  namespace: GATEWAY_NAMESPACE,
  name: 'other',
  gatewayClass: 'other',
  controllerName: 'example.com/other',
  listeners: [
    { name: 'http', protocol: 'HTTP', port: 80, allowedRoutes: fromAll },
    {
      name: 'udp',
      protocol: 'UDP',
      port: 5353,
      allowedRoutes: { ...fromAll, kinds: [{ kind: 'UDPRoute' }] }
    }
  ]
}

export function statusCode(error: unknown): number | undefined {
  return error instanceof ApiException ? error.code : undefined
}

function listenerSpec(listener: ListenerInfo): Record<string, unknown> {
  const { name, protocol, port, hostname, allowedRoutes } = listener
  return {
    name,
    protocol,
    port,
    ...(hostname === undefined ? {} : { hostname }),
    ...(protocol === 'TLS' ? { tls: { mode: 'Passthrough' } } : {}),
    allowedRoutes
  }
}

function gatewayObjects(gateway: GatewayInfo): KubernetesObject[] {
  return [
    {
      apiVersion: `${GATEWAY_GROUP}/v1`,
      kind: 'GatewayClass',
      metadata: { name: gateway.gatewayClass },
      spec: { controllerName: gateway.controllerName }
    } as KubernetesObject,
    {
      apiVersion: `${GATEWAY_GROUP}/v1`,
      kind: 'Gateway',
      metadata: { namespace: gateway.namespace, name: gateway.name },
      spec: {
        gatewayClassName: gateway.gatewayClass,
        listeners: gateway.listeners.map(listenerSpec)
      }
    } as KubernetesObject
  ]
}

/** Creates every document (POST: the HTTPRoute CRD is too big for client-side apply); existing ones are kept. */
async function createAll(objects: KubernetesObjectApi, docs: KubernetesObject[]): Promise<void> {
  for (const doc of docs) {
    try {
      await objects.create(doc)
    } catch (error) {
      if (statusCode(error) !== 409) throw error
    }
  }
}

function loadDocs(file: string): KubernetesObject[] {
  return loadAllYaml(readFileSync(file, 'utf8')).filter(
    (doc): doc is KubernetesObject => typeof doc === 'object' && doc !== null && 'kind' in doc
  )
}

async function waitEstablished(kc: KubeConfig, names: string[], timeoutMs: number): Promise<void> {
  const api = kc.makeApiClient(ApiextensionsV1Api)
  const deadline = Date.now() + timeoutMs
  for (const name of names) {
    for (;;) {
      const crd = await api.readCustomResourceDefinition({ name })
      const established = crd.status?.conditions?.some(
        (c) => c.type === 'Established' && c.status === 'True'
      )
      if (established === true) break
      if (Date.now() > deadline)
        throw new Error(`CRD ${name} not Established after ${timeoutMs} ms`)
      await sleep(200)
    }
  }
}

/** Installs every document of every file and waits until each CRD among them is Established. */
export async function installCrds(kc: KubeConfig, files: string[]): Promise<number> {
  const docs = files.flatMap(loadDocs)
  await createAll(KubernetesObjectApi.makeApiClient(kc), docs)
  const crds = docs.filter((doc) => doc.kind === 'CustomResourceDefinition')
  await waitEstablished(
    kc,
    crds.map((crd) => crd.metadata?.name ?? ''),
    60_000
  )
  return crds.length
}

export async function createGateways(kc: KubeConfig, gateways: GatewayInfo[]): Promise<void> {
  const namespaces = [GATEWAY_NAMESPACE, ENVOY_GATEWAY_NAMESPACE].map((name) => ({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name }
  }))
  await createAll(KubernetesObjectApi.makeApiClient(kc), [
    ...namespaces,
    ...gateways.flatMap(gatewayObjects)
  ])
}

interface GatewayCondition {
  type: string
  status: string
  reason?: string
  observedGeneration?: number
}

/**
 * Waits for a controller to accept its Gateway. Contour sets Programmed=True without an Envoy when the
 * Gateway asks for no addresses and every listener is valid; Accepted alone is the fallback, and
 * which one was seen is returned so the env records it.
 */
export async function waitForGateway(
  kc: KubeConfig,
  timeoutMs: number,
  target: GatewayInfo = CONTOUR_GATEWAY
): Promise<'Programmed' | 'Accepted'> {
  const api = kc.makeApiClient(CustomObjectsApi)
  const deadline = Date.now() + timeoutMs
  let acceptedAt: number | undefined
  let last: GatewayCondition[] = []
  for (;;) {
    const gateway = (await api.getNamespacedCustomObject({
      group: GATEWAY_GROUP,
      version: 'v1',
      namespace: target.namespace,
      plural: 'gateways',
      name: target.name
    })) as { metadata: { generation: number }; status?: { conditions?: GatewayCondition[] } }
    last = gateway.status?.conditions ?? []
    const isTrue = (type: string): boolean =>
      last.some(
        (c) =>
          c.type === type &&
          c.status === 'True' &&
          c.observedGeneration === gateway.metadata.generation
      )
    if (isTrue('Programmed') && isTrue('Accepted')) return 'Programmed'
    if (isTrue('Accepted')) acceptedAt ??= Date.now()
    // Each controller writes both conditions in one status update, so a few seconds settle it.
    if (acceptedAt !== undefined && Date.now() - acceptedAt > 5000) return 'Accepted'
    if (Date.now() > deadline) {
      throw new Error(
        `Gateway ${target.namespace}/${target.name} not accepted by its controller (${target.controllerName}) after ${timeoutMs} ms; conditions: ${JSON.stringify(last)}`
      )
    }
    await sleep(250)
  }
}

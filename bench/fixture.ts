// The Routes the bench measures on: UDPRoutes on the `udp` listener of the test cluster's `other`
// Gateway. No running controller owns that Gateway's class and Contour does not watch UDPRoutes at all,
// so the bench alone decides when status appears, and thousands of Routes cost Contour (and the other
// tests sharing the cluster) nothing. Status is written the way a controller writes it, through the
// status subresource (one merge PATCH per Route).
import { randomBytes } from 'node:crypto'
import type { ClusterEnv, GatewayInfo } from '../test/cluster/env.ts'
import { ApiError, inPool, type AdminApi } from './api.ts'

export const GROUP = 'gateway.networking.k8s.io'
export const KIND = 'UDPRoute'
export const COLLECTION = 'udproutes'
const VERSION = 'v1'
/** concurrent writes from the bench; the API server on 2 cores is saturated well before this */
const WRITE_CONCURRENCY = 24

export interface RouteRef {
  namespace: string
  name: string
}

/** none: no status at all, as on a Route no controller has seen yet */
export type StatusState = 'ready' | 'failed' | 'none'

export const routeArg = (route: RouteRef): string => `${KIND}/${route.namespace}/${route.name}`

const collectionPath = (namespace: string): string =>
  `/apis/${GROUP}/${VERSION}/namespaces/${namespace}/${COLLECTION}`

/** The parentRef of every bench Route: the `udp` listener of the Gateway no controller owns. */
export function udpParentRef(gateway: GatewayInfo): Record<string, string> {
  return {
    group: GROUP,
    kind: 'Gateway',
    namespace: gateway.namespace,
    name: gateway.name,
    sectionName: 'udp'
  }
}

/** The spec of every bench Route, as the bench creates it. */
export function routeSpec(parentRef: Record<string, string>): Record<string, unknown> {
  return { parentRefs: [parentRef], rules: [{ backendRefs: [{ name: 'dns', port: 53 }] }] }
}

/** A controller's status entry for `parentRef`, as the bench writes it. */
export function parentStatus(
  parentRef: Record<string, string>,
  controllerName: string,
  state: 'ready' | 'failed'
): Record<string, unknown> {
  const lastTransitionTime = new Date().toISOString().replace(/\.\d+Z$/, 'Z')
  const condition = (type: string, reason: string, ok: boolean): Record<string, unknown> => ({
    type,
    status: ok ? 'True' : 'False',
    reason,
    message: ok ? '' : 'Backend dns does not exist',
    observedGeneration: 1,
    lastTransitionTime
  })
  return {
    parentRef,
    controllerName,
    conditions: [
      condition('Accepted', 'Accepted', true),
      state === 'ready'
        ? condition('ResolvedRefs', 'ResolvedRefs', true)
        : condition('ResolvedRefs', 'BackendNotFound', false)
    ]
  }
}

export class Fixture {
  readonly runId = randomBytes(3).toString('hex')
  private readonly api: AdminApi
  private readonly parentRef: Record<string, string>
  private readonly controllerName: string

  constructor(api: AdminApi, env: ClusterEnv) {
    this.api = api
    this.parentRef = udpParentRef(env.otherGateway)
    this.controllerName = env.otherGateway.controllerName
  }

  /** `count` fresh namespaces named bench-<run>-<i>. */
  async namespaces(count: number): Promise<string[]> {
    const names = Array.from({ length: count }, (_, i) => `bench-${this.runId}-${i}`)
    await inPool(names, WRITE_CONCURRENCY, async (name) => {
      await this.api.json('POST', '/api/v1/namespaces', {
        metadata: { name, labels: { 'route-gate-bench': this.runId } }
      })
    })
    return names
  }

  /** `count` Routes named <set>-<i>, spread round-robin over the namespaces, without status. */
  async createRoutes(set: string, count: number, namespaces: string[]): Promise<RouteRef[]> {
    const routes = Array.from({ length: count }, (_, i) => ({
      namespace: namespaces[i % namespaces.length]!,
      name: `${set}-${i}`
    }))
    await inPool(routes, WRITE_CONCURRENCY, async (route) => {
      await this.api.json('POST', collectionPath(route.namespace), {
        apiVersion: `${GROUP}/${VERSION}`,
        kind: KIND,
        metadata: { name: route.name, labels: { 'route-gate-bench': this.runId, set } },
        spec: routeSpec(this.parentRef)
      })
    })
    return routes
  }

  async writeStatus(route: RouteRef, state: StatusState): Promise<void> {
    await this.api.json(
      'PATCH',
      `${collectionPath(route.namespace)}/${route.name}/status`,
      { status: state === 'none' ? null : { parents: [this.parentStatus(state)] } },
      'application/merge-patch+json'
    )
  }

  /** Writes every Route's status with bounded concurrency; resolves with the time of the last answer. */
  async writeAll(routes: RouteRef[], state: StatusState): Promise<number> {
    let last = 0
    await inPool(routes, WRITE_CONCURRENCY, async (route) => {
      await this.writeStatus(route, state)
      last = performance.now()
    })
    return last
  }

  /** A controller's status entry for the `other` Gateway. */
  parentStatus(state: 'ready' | 'failed'): Record<string, unknown> {
    return parentStatus(this.parentRef, this.controllerName, state)
  }

  /** the run's Routes of one set, or all of them */
  private selector(set?: string): string {
    const run = `route-gate-bench=${this.runId}`
    return encodeURIComponent(set === undefined ? run : `${run},set=${set}`)
  }

  async listRoutes(set: string): Promise<Record<string, unknown>[]> {
    const list = await this.api.json<{ items: Record<string, unknown>[] }>(
      'GET',
      `/apis/${GROUP}/${VERSION}/${COLLECTION}?labelSelector=${this.selector(set)}`
    )
    return list.items
  }

  /** Deletes a set's Routes (all: undefined), one collection DELETE per namespace, so the shared
   * cluster stays small. */
  async deleteRoutes(set: string | undefined, namespaces: string[]): Promise<void> {
    await inPool(namespaces, WRITE_CONCURRENCY, async (namespace) => {
      await this.api.text(
        'DELETE',
        `${collectionPath(namespace)}?labelSelector=${this.selector(set)}`
      )
    })
  }

  /** Namespaces cannot finish deleting without a namespace controller; they stay Terminating, empty. */
  async deleteNamespaces(namespaces: string[]): Promise<void> {
    await inPool(namespaces, WRITE_CONCURRENCY, async (name) => {
      await this.api.text('DELETE', `/api/v1/namespaces/${name}`).catch((error: unknown) => {
        if (!(error instanceof ApiError && error.status === 404)) throw error
      })
    })
  }
}

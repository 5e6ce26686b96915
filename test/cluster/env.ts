// Where the test control plane keeps its state, and the shape of `.cluster/env.json`, the one file that
// lets every later process (the CLI, vitest workers, `cluster:down`) find a running cluster.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url))
export const DEFAULT_CLUSTER_DIR = join(REPO_ROOT, '.cluster')

/** Set by the integration global setup so workers find the env file without guessing. */
export const ENV_FILE_VARIABLE = 'ROUTE_GATE_CLUSTER_ENV'

export interface ListenerInfo {
  name: string
  port: number
  protocol: string
  hostname?: string
  allowedRoutes: {
    namespaces: { from: 'All' | 'Same' | 'Selector' }
    kinds?: { group?: string; kind: string }[]
  }
}

export interface GatewayInfo {
  namespace: string
  name: string
  gatewayClass: string
  controllerName: string
  listeners: ListenerInfo[]
}

/** The processes `up` starts; also the keys of `pids`, `logs` and `health`. */
export const COMPONENTS = ['traefik', 'envoy-gateway', 'contour', 'apiserver', 'etcd'] as const
export type Component = (typeof COMPONENTS)[number]

export type ControllerId = 'contour' | 'envoy-gateway' | 'traefik'

/** One running Gateway controller with the GatewayClass and Gateway it serves. */
export interface ControllerInfo {
  name: ControllerId
  controllerName: string
  gatewayClass: string
  gateway: { namespace: string; name: string }
  /**
   * For Traefik these ports are also its entry points: it accepts traffic on 127.0.0.1 at each
   * listener's port, and writes 127.0.0.1 as the Gateway's status address.
   */
  listeners: ListenerInfo[]
}

export interface ClusterEnv {
  kubeconfig: string
  apiServer: string
  gatewayClass: string
  /** the Gateway Contour serves (static provisioning: exactly one) */
  gateway: { namespace: string; name: string }
  listeners: ListenerInfo[]
  /**
   * A Gateway of a class no running controller owns: Contour never writes status for Routes attached
   * only to it, so status written by the test helpers stays as written.
   */
  otherGateway: GatewayInfo
  /** the condition Contour sets True on its Gateway without an Envoy (see README) */
  gatewayReadyCondition: 'Programmed' | 'Accepted'
  /** Contour first (the fields above describe it), then Envoy Gateway and Traefik */
  controllers: ControllerInfo[]
  pids: Record<Component, number>
  logs: Record<Component, string>
  health: Record<Component, string>
  dataDir: string
  binDir: string
  startedAt: string
}

export function envFilePath(clusterDir: string = DEFAULT_CLUSTER_DIR): string {
  return join(clusterDir, 'env.json')
}

export function readClusterEnv(file: string = envFilePath()): ClusterEnv | undefined {
  if (!existsSync(file)) return undefined
  return JSON.parse(readFileSync(file, 'utf8')) as ClusterEnv
}

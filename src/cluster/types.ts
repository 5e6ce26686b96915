// The narrow interface between route-gate and a Kubernetes API server. Only src/cluster/ implements
// it, on Node's HTTP client; tests may fake it. Every method throws ClusterError (exit 3) for
// access problems and InputError (exit 2) for objects the server rejects as invalid.
import type { LiveObject } from './objects.ts'
import type { KubeObject, RouteKey, RouteKind, RouteObject, World } from '../model/types.ts'
import type { ManifestDocument } from '../read/manifests.ts'

/** Which Routes to look at: named ones, or every Route of the kinds in the namespaces (optionally by label). */
export interface RouteScope {
  kinds: RouteKind[]
  /** namespaces to list and watch; 'all' for every namespace */
  namespaces: string[] | 'all'
  labelSelector?: string
  /** when set, only these Routes matter (their kinds and namespaces are within the lists above) */
  names?: RouteKey[]
}

export interface RouteWatchHandlers {
  /** the full state of one kind in one namespace (null: all namespaces) after a list or relist */
  onList(kind: RouteKind, namespace: string | null, routes: RouteObject[]): void
  onChange(type: 'ADDED' | 'MODIFIED' | 'DELETED', route: RouteObject): void
  /** a transient fault and the retry it caused; called once per fault, not per attempt */
  onRetry(message: string): void
  /** the fault reported by onRetry is over (a list or watch succeeded again) */
  onRecovered?(): void
}

export interface ApplyResult {
  /** the objects as the server returned them (after dry-run only, when dryRun is set) */
  applied: { doc: ManifestDocument; object: KubeObject }[]
}

export interface ApplyOptions {
  dryRun: boolean
  namespace?: string
}

export interface ClusterDump {
  objects: KubeObject[]
  /** the lists the account may not read ("services in namespace shop: forbidden (list)") */
  forbidden: string[]
  /** the kinds every list of which was allowed: predict may call a missing one absent */
  complete: string[]
}

/** where a dump comes from: the API server (no credentials) and the kubeconfig context */
export interface ClusterOrigin {
  server: string
  context: string
}

export interface ClusterClient {
  /** "https://host:port (context name)" for messages */
  readonly description: string
  readonly origin: ClusterOrigin
  /** the context's default namespace ('default' when the context names none) */
  readonly namespace: string
  /** the served apiVersion ("gateway.networking.k8s.io/v1") of each Route kind; kinds not served are absent */
  routeVersions(): Promise<Map<RouteKind, string>>
  /**
   * Server-side dry-run of every document first; only when all pass, server-side apply (field manager
   * route-gate). Namespaced documents without a namespace go to `namespace`, else the context's.
   */
  apply(docs: ManifestDocument[], options: ApplyOptions): Promise<ApplyResult>
  /** fails with ClusterError when a namespace does not exist */
  checkNamespaces(namespaces: string[]): Promise<void>
  listRoutes(scope: RouteScope): Promise<RouteObject[]>
  /** list then watch every (kind, namespace) of the scope until the signal aborts; reconnects and relists on its own */
  watchRoutes(scope: RouteScope, handlers: RouteWatchHandlers, signal: AbortSignal): Promise<void>
  /**
   * Reads what verdicts and diagnosis need: GatewayClasses, Gateways and ListenerSets always; Namespaces, Services and
   * ReferenceGrants of the given namespaces only ([] reads none of them, for a cheap owner lookup).
   * Forbidden reads are listed in World.unreadable.
   */
  readWorld(namespaces: string[]): Promise<World>
  /** every object predict needs from the whole cluster, read-only (get and list); never Secrets */
  readDump(): Promise<ClusterDump>
  /**
   * The live object a document names, managedFields kept; 'absent' when it does not exist (or its
   * kind is not served), 'forbidden' when the account may not get it. Namespaced objects without a
   * namespace are looked for in `namespace`.
   */
  readObject(object: KubeObject, namespace: string): Promise<LiveObject>
  /** the defaults the served OpenAPI schema declares for a kind; undefined when it cannot be read */
  servedDefaults(apiVersion: string, kind: string): Promise<Map<string, unknown> | undefined>
  /** the transient fault requests are failing with right now, if any: named when time runs out */
  lastFault?(): string | undefined
  close(): void
}

// The gate's first steps: read the manifests (a mistake there is exit 2 before the cluster is asked),
// learn what the cluster serves, apply the manifests (dry-run first) or take them as they are, and
// name the Routes to wait for: by name (manifests, routes) or by scope (selector, namespace).
import type { RouteScope } from '../../cluster/types.ts'
import type { ManifestDocument } from '../../read/manifests.ts'
import { ClusterError, InputError } from '../../runtime/errors.ts'
import { expandManifestPaths, loadManifests } from '../../read/manifests.ts'
import { isRouteObject } from '../../model/kinds.ts'
import { buildReport } from '../../model/report.ts'
import { routeKey } from '../../model/route-id.ts'
import type { Report, RouteKey, RouteKind, SourcePosition } from '../../model/types.ts'
import { loadTrafficCa } from '../../probe/transport/ca.ts'
import { TOOL_VERSION } from '../../runtime/version.ts'
import { inTime, type GateRun } from './gate-run.ts'

export interface GateInputs {
  docs: ManifestDocument[]
  /** verify-traffic: the extra CA certificates, read before anything is applied */
  trafficCa?: string
}

export async function readGateInputs(run: GateRun): Promise<GateInputs> {
  const { settings, cwd } = run
  const docs = settings.manifests.length
    ? await loadManifests(await expandManifestPaths(settings.manifests, cwd), cwd, {
        at: run.deadline,
        now: run.now
      })
    : []
  const trafficCa =
    settings.trafficCa === undefined ? undefined : await loadTrafficCa(settings.trafficCa, cwd)
  return { docs, trafficCa }
}

/** What the cluster serves, and the namespace Routes given without one are in. */
export interface ClusterView {
  served: Map<RouteKind, string>
  defaultNamespace: string
}

export async function connectToCluster(run: GateRun): Promise<ClusterView> {
  const { settings, cluster } = run
  const served = await inTime(run, cluster.routeVersions())
  if (settings.namespace !== undefined)
    await inTime(run, cluster.checkNamespaces([settings.namespace]))
  return { served, defaultNamespace: settings.namespace ?? cluster.namespace }
}

/** The Routes the gate waits for. */
export interface GateTargets {
  /** by name (manifests, routes), in the order given; empty for a selector or namespace scope */
  names: RouteKey[]
  byName: boolean
  scope: RouteScope
  /** where each Route of the manifests was read, by Route key */
  sources: Map<string, SourcePosition>
}

const ROUTE_KIND_LIST = 'HTTPRoute, GRPCRoute, TLSRoute, TCPRoute, UDPRoute'

/** Applies (or, for check, takes as they are) the manifests and names the Routes; a dry run ends here. */
export async function applyAndLocate(
  run: GateRun,
  docs: ManifestDocument[],
  view: ClusterView
): Promise<GateTargets | { dryRun: Report }> {
  const { settings } = run
  const sources = new Map<string, SourcePosition>()
  const names: RouteKey[] = []
  checkManifestRoutes(run, docs)
  if (docs.length > 0) {
    // check is read-only: it gates the Routes the files name, as the cluster has them
    const applied = settings.applyManifests
      ? await inTime(run, applyManifests(run, docs))
      : docs.map((doc) => ({ doc, object: doc.object }))
    if (settings.dryRun) return { dryRun: dryRunReport(run, applied.length, docs.length) }
    for (const { doc, object } of applied) {
      if (!isRouteObject(object)) continue
      const key = {
        kind: object.kind,
        namespace: object.metadata.namespace ?? view.defaultNamespace,
        name: object.metadata.name
      }
      names.push(key)
      sources.set(routeKey(key), { file: doc.file, line: doc.line })
    }
  }
  for (const r of settings.routes) {
    names.push({ kind: r.kind, namespace: r.namespace ?? view.defaultNamespace, name: r.name })
  }
  const byName = names.length > 0 && settings.selector === undefined
  const scope = buildScope(run, names, byName, view.defaultNamespace)
  requireServed(scope.kinds, view.served, byName)
  scope.kinds = scope.kinds.filter((k) => view.served.has(k))
  return { names, byName, scope, sources }
}

/** Before anything is applied: manifests with nothing to gate are a mistake, not a deployment. */
function checkManifestRoutes(run: GateRun, docs: ManifestDocument[]): void {
  const { settings } = run
  const holdsRoutes = docs.some((doc) => isRouteObject(doc.object))
  if (settings.selector !== undefined && holdsRoutes) {
    throw new InputError(
      'Invalid inputs: manifests hold Routes, which are gated by name; drop selector, or apply the Routes in another step and gate them by selector'
    )
  }
  const nothingToGate = settings.routes.length === 0 && settings.selector === undefined
  if (docs.length > 0 && !settings.dryRun && nothingToGate && !holdsRoutes) {
    throw new InputError(
      `manifests hold no Route (${ROUTE_KIND_LIST}): nothing to gate among ${docs.length} documents`
    )
  }
}

async function applyManifests(
  run: GateRun,
  docs: ManifestDocument[]
): Promise<{ doc: ManifestDocument; object: ManifestDocument['object'] }[]> {
  const { settings, cluster } = run
  const verb = settings.dryRun ? 'Validating (server-side dry-run)' : 'Applying (server-side apply)'
  run.log(`${verb} ${docs.length} documents on ${cluster.description}`)
  const { applied } = await cluster.apply(docs, {
    dryRun: settings.dryRun,
    namespace: settings.namespace
  })
  return applied
}

function dryRunReport(run: GateRun, applied: number, total: number): Report {
  run.log(`Dry run: ${applied} of ${total} documents accepted by the API server; nothing applied`)
  return buildReport({
    mode: 'gate',
    routes: [],
    toolVersion: TOOL_VERSION,
    startedAt: new Date(run.started),
    finishedAt: new Date(run.now()),
    notes: [
      `Dry run: all ${total} documents passed server-side validation; nothing was applied and no Route was gated.`
    ]
  })
}

function buildScope(
  run: GateRun,
  names: RouteKey[],
  byName: boolean,
  defaultNamespace: string
): RouteScope {
  const { settings } = run
  if (byName) {
    return {
      kinds: [...new Set(names.map((n) => n.kind))],
      namespaces: settings.allNamespaces ? 'all' : [...new Set(names.map((n) => n.namespace))],
      names
    }
  }
  return {
    kinds: [...settings.kinds],
    namespaces: settings.allNamespaces ? 'all' : [defaultNamespace],
    labelSelector: settings.selector
  }
}

function requireServed(kinds: RouteKind[], served: Map<RouteKind, string>, byName: boolean): void {
  const missing = kinds.filter((k) => !served.has(k))
  if (missing.length === 0) return
  if (byName || missing.length === kinds.length) {
    throw new ClusterError(
      `The API server does not serve ${missing.join(', ')}: install the Gateway API CRDs that define ${missing.length > 1 ? 'them' : 'it'} (experimental channel for older TLSRoute/TCPRoute/UDPRoute versions)`
    )
  }
}

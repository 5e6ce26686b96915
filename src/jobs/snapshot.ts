// Snapshot mode: judge a saved dump (kubectl get … -o yaml) with no cluster and no waiting. The dump
// supplies both the Routes and the World around them, so the report explains itself offline.
import type { ManifestDocument } from '../read/manifests.ts'
import { newestTimestamp } from '../model/clock.ts'
import { explainRoute } from '../diagnose/explain.ts'
import { proveFixes } from '../predict/prove.ts'
import { index, kindsHeld } from '../predict/overlay.ts'
import { explainMissingRoute } from '../diagnose/missing.ts'
import { InputError } from '../runtime/errors.ts'
import type { Settings } from '../inputs/settings.ts'
import { selectorTerms } from '../inputs/values.ts'
import { expandManifestPaths, loadManifests, readingFromFile } from '../read/manifests.ts'
import { evaluateRoute } from '../model/evaluate.ts'
import { isRouteObject } from '../model/kinds.ts'
import { isListenerSetRef } from '../model/owner.ts'
import { routeParentRefs } from '../model/route-spec.ts'
import { buildReport } from '../model/report.ts'
import type { KubeObject, Report, RouteObject, World } from '../model/types.ts'
import { TOOL_VERSION } from '../runtime/version.ts'
import { parseRouteKey } from '../model/route-id.ts'

type WorldList = keyof Omit<World, 'unreadable' | 'partial' | 'served' | 'backendTLSPolicies'>

const WORLD_KINDS: Record<string, WorldList> = {
  GatewayClass: 'gatewayClasses',
  Gateway: 'gateways',
  Namespace: 'namespaces',
  Service: 'services',
  ReferenceGrant: 'referenceGrants'
}

/** Most clusters have none, so a dump without them is missing them only when a Route names one. */
const LISTENER_SET_KINDS = new Set(['ListenerSet', 'XListenerSet'])

export interface DumpContents {
  routes: { route: RouteObject; doc: ManifestDocument }[]
  world: World
  /** world kinds the dump holds none of */
  missing: string[]
}

/** Sorts a dump's documents into Routes in scope and the World around them; other kinds are ignored. */
export function splitDump(docs: ManifestDocument[], settings: Settings): DumpContents {
  const lists: Record<WorldList, KubeObject[]> = {
    gatewayClasses: [],
    gateways: [],
    namespaces: [],
    services: [],
    referenceGrants: [],
    listenerSets: []
  }
  const routes: DumpContents['routes'] = []
  for (const doc of docs) {
    const object: KubeObject = doc.object
    if (isRouteObject(object)) {
      const route = withNamespace(object, settings.namespace ?? 'default')
      if (inScope(route, settings)) routes.push({ route, doc })
      continue
    }
    if (LISTENER_SET_KINDS.has(object.kind)) lists.listenerSets.push(object)
    const slot = WORLD_KINDS[object.kind]
    if (slot) lists[slot].push(object)
  }
  const world: World = { ...lists, unreadable: [] }
  const missing = Object.keys(WORLD_KINDS).filter((k) => lists[WORLD_KINDS[k]!].length === 0)
  const namesListenerSet = routes.some(({ route }) => routeParentRefs(route).some(isListenerSetRef))
  if (namesListenerSet && lists.listenerSets.length === 0) missing.push('ListenerSet')
  if (missing.length > 0) world.partial = true
  return { routes, world, missing }
}

function withNamespace(route: RouteObject, fallback: string): RouteObject {
  if (route.metadata.namespace) return route
  return { ...route, metadata: { ...route.metadata, namespace: fallback } }
}

/** Named Routes as the gate names them: without a namespace, the namespace input's, else default. */
function namedKeys(s: Settings): string[] {
  return s.routes.map((r) => routeKey(r.kind, r.namespace ?? s.namespace ?? 'default', r.name))
}

const routeKey = (kind: string, namespace: string, name: string): string =>
  `${kind}/${namespace}/${name}`

function inScope(route: RouteObject, s: Settings): boolean {
  if (!s.kinds.includes(route.kind)) return false
  const { namespace, name } = route.metadata
  if (s.routes.length > 0) return namedKeys(s).includes(routeKey(route.kind, namespace, name))
  if (s.namespace !== undefined && namespace !== s.namespace) return false
  return s.selector === undefined || matchesSelector(route.metadata.labels ?? {}, s.selector)
}

/** Label selector semantics of the API server, for dumps (the CLI checks the syntax before). */
export function matchesSelector(labels: Record<string, string>, selector: string): boolean {
  return selectorTerms(selector)
    .map((t) => t.trim())
    .every((term) => {
      const set = /^(\S+)\s+(in|notin)\s+\((.*)\)$/.exec(term)
      if (set) {
        const values = set[3]!.split(',').map((v) => v.trim())
        const has = set[1]! in labels && values.includes(labels[set[1]!]!)
        return set[2] === 'in' ? has : !has
      }
      const cmp = /^([^!=\s]+)\s*(==|=|!=)\s*(.*)$/.exec(term)
      if (cmp) {
        const equal = labels[cmp[1]!] === cmp[3]
        return cmp[2] === '!=' ? !equal : equal
      }
      return term.startsWith('!') ? !(term.slice(1).trim() in labels) : term in labels
    })
}

export async function runSnapshot(settings: Settings, cwd: string): Promise<Report> {
  const file = settings.fromFile
  if (file === undefined) throw new InputError('from-file is required for a snapshot')
  const docs = await readingFromFile(async () =>
    loadManifests(await expandManifestPaths([file], cwd, 'from-file'), cwd)
  )
  const { routes, world, missing } = splitDump(docs, settings)
  if (routes.length === 0 && settings.routes.length === 0) {
    throw new InputError(
      `${file}: no ${settings.kinds.join('/')} in scope (the dump holds ${describeKinds(docs)})`
    )
  }
  const options = { conditions: settings.conditions, strict: settings.strict, final: false }
  const notes = new Set<string>()
  const objects = docs.map((d) => d.object)
  const now = newestTimestamp(objects)
  const explain = {
    // ages count from the dump's own newest timestamp: when it is read says nothing about the cluster
    ...(now ? { now, clock: 'dump' as const } : {}),
    // the same namespace the judged Routes take, so no Route is mistaken for another (or for itself)
    routes: objects
      .filter(isRouteObject)
      .map((r) => withNamespace(r, settings.namespace ?? 'default'))
  }
  const results = routes.map(({ route, doc }) => {
    const verdict = evaluateRoute(route, world, options)
    verdict.notes.forEach((n) => notes.add(n))
    return explainRoute(verdict, world, { ...explain, source: { file: doc.file, line: doc.line } })
  })
  // each fix is proven against the dump with the fix made, before it is printed
  const proven = proveFixes(results, {
    objects: () =>
      index([...objects.filter((o) => !isRouteObject(o)), ...explain.routes], kindsHeld(objects)),
    required: settings.conditions
  })
  results.splice(0, results.length, ...proven)
  // a Route asked for by name that the dump does not hold did not exist when it was taken
  const found = new Set(
    routes.map(({ route: r }) => routeKey(r.kind, r.metadata.namespace, r.metadata.name))
  )
  for (const key of namedKeys(settings).filter((k) => !found.has(k))) {
    results.push(explainMissingRoute(parseRouteKey(key), true))
  }
  if (missing.length > 0) {
    notes.add(
      `The dump holds no ${missing.join(', ')}: diagnosis that needs them is limited (dump them too with kubectl get … -A -o yaml).`
    )
  }
  return buildReport({
    mode: 'snapshot',
    routes: results,
    toolVersion: TOOL_VERSION,
    notes: [...notes]
  })
}

function describeKinds(docs: ManifestDocument[]): string {
  const counts = new Map<string, number>()
  for (const d of docs) counts.set(d.object.kind, (counts.get(d.object.kind) ?? 0) + 1)
  return [...counts].map(([k, n]) => `${n} ${k}`).join(', ') || 'nothing'
}

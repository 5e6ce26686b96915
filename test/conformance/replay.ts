// Replays a recorded moment offline: each Route the recorded controller wrote status for becomes
// the pull request's manifest (status stripped, metadata kept), predicted against the rest of the
// moment's dump, read the way `predict --from-file` reads it, and judged per parentRef against what
// the controller wrote.
import { stringify } from 'yaml'
import { explainRoute } from '../../src/diagnose/explain.ts'
import { parseCommandLine } from '../../src/cli/verbs.ts'
import { parseSettings } from '../../src/inputs/parse.ts'
import type { Settings } from '../../src/inputs/settings.ts'
import { renderDump } from '../../src/jobs/dump.ts'
import { normalizeParentRef } from '../../src/model/parent-ref.ts'
import type { KubeObject, ParentRef, PredictReport } from '../../src/model/types.ts'
import { predict, type PredictInput } from '../../src/predict/index.ts'
import { NEEDED_KINDS } from '../../src/predict/overlay.ts'
import { readDumpHeader } from '../../src/read/dump-header.ts'
import { parseManifestText, type ManifestDocument } from '../../src/read/manifests.ts'
import { TOOL_VERSION } from '../../src/runtime/version.ts'
import { keyOf, type Moment } from './fixture-format.ts'

/** header: the file `route-gate dump` writes; kubectl: the same objects as `kubectl get -o yaml` lists them */
export type Flavour = 'header' | 'kubectl'
export const FLAVOURS: Flavour[] = ['header', 'kubectl']

export type Written = 'ready' | 'failed'
export type Predicted = 'ready' | 'failed' | 'unknown'

export interface Outcome {
  moment: string
  route: string
  parent: string
  written: Written
  writtenReason?: string
  predicted: Predicted
  /** failed: the reason predicted; unknown: why */
  predictedReason?: string
}

const ROUTE_KINDS = new Set(['HTTPRoute', 'GRPCRoute', 'TLSRoute', 'TCPRoute', 'UDPRoute'])
/** the file names the CLI would show: a report names the manifest's file and line */
export const DUMP_FILE = 'dump.yaml'
export const MANIFEST_FILE = 'route.yaml'

/** The settings `route-gate predict --manifests M --from-file D` runs with: the CLI's defaults. */
export function cliSettings(manifests: string, fromFile: string): Settings {
  const parsed = parseCommandLine(['predict', '--manifests', manifests, '--from-file', fromFile])
  if ('help' in parsed) throw new Error('predict parsed as help')
  const { verb, values } = parsed
  return parseSettings((name) => values.get(name), verb.command, {
    apply: verb.apply,
    kubeconfig: 'path'
  })
}

const SETTINGS = cliSettings(MANIFEST_FILE, DUMP_FILE)

interface Condition {
  type: string
  status: string
  reason?: string
}

interface StatusEntry {
  parentRef: Record<string, unknown>
  controllerName: string
  conditions?: Condition[]
}

export type RouteWithStatus = KubeObject & {
  spec?: { parentRefs?: unknown[] }
  status?: { parents?: StatusEntry[] }
}

export function dumpText(moment: Moment, flavour: Flavour): string {
  if (flavour === 'header') {
    const { forbidden, complete } = moment.header
    return renderDump({ objects: moment.objects, forbidden, complete }, moment.header)
  }
  const list = {
    apiVersion: 'v1',
    items: moment.objects,
    kind: 'List',
    metadata: { resourceVersion: '' }
  }
  // kubectl's own layout: sequences not indented under their key
  return stringify(list, { indentSeq: false, lineWidth: 0 })
}

/**
 * The cluster side as src/jobs/predict.ts dumpSource builds it from one file: the header's lists,
 * or, without one, every kind predict needs that the file holds at least one of.
 */
export async function readCluster(text: string): Promise<Pick<PredictInput, 'cluster' | 'source'>> {
  const cluster = await parseManifestText(text, DUMP_FILE)
  const header = readDumpHeader(text, DUMP_FILE)
  if (header !== undefined) {
    const { takenAt, cluster: server, context, complete } = header
    return { cluster, source: { kind: 'dump', takenAt, cluster: server, context, complete } }
  }
  const held = new Set(
    cluster.map((d) => (d.object.kind === 'XListenerSet' ? 'ListenerSet' : d.object.kind))
  )
  const assumed = NEEDED_KINDS.filter((kind) => held.has(kind))
  return { cluster, source: { kind: 'dump', complete: assumed, assumedComplete: assumed } }
}

const sameRef = (a: ParentRef, b: ParentRef): boolean =>
  a.group === b.group &&
  a.kind === b.kind &&
  a.namespace === b.namespace &&
  a.name === b.name &&
  a.sectionName === b.sectionName &&
  a.port === b.port

const showRef = (r: ParentRef): string =>
  `${r.kind} ${r.namespace}/${r.name}${r.sectionName ? `#${r.sectionName}` : ''}${r.port ? `:${r.port}` : ''}`

function writtenVerdict(entry: StatusEntry): { written: Written; writtenReason?: string } {
  const find = (type: string): Condition | undefined =>
    entry.conditions?.find((c) => c.type === type)
  const [accepted, resolved] = [find('Accepted'), find('ResolvedRefs')]
  if (accepted?.status === 'True' && resolved?.status === 'True') return { written: 'ready' }
  const failing = accepted?.status !== 'True' ? accepted : resolved
  return {
    written: 'failed',
    writtenReason:
      failing?.reason ?? `no ${accepted?.status === 'True' ? 'ResolvedRefs' : 'Accepted'}`
  }
}

function predictedVerdict(parent: PredictReport['routes'][number]['parents'][number] | undefined): {
  predicted: Predicted
  predictedReason?: string
} {
  if (parent === undefined) return { predicted: 'unknown', predictedReason: 'no parent predicted' }
  const verdict = parent.verdict === 'pending' ? 'unknown' : parent.verdict
  if (verdict === 'ready') return { predicted: 'ready' }
  if (verdict === 'unknown') return { predicted: 'unknown', predictedReason: parent.why?.join(' ') }
  // the order writtenVerdict reads them in: Accepted, then ResolvedRefs, then any other
  const conditions = parent.conditions ?? []
  const failing =
    conditions.find((c) => c.type === 'Accepted' && c.status === 'False') ??
    conditions.find((c) => c.type === 'ResolvedRefs' && c.status === 'False') ??
    conditions.find((c) => c.status === 'False')
  return { predicted: 'failed', predictedReason: failing?.reason ?? parent.problems[0]?.reason }
}

function judge(
  moment: string,
  route: RouteWithStatus,
  controllerName: string,
  report: PredictReport
): Outcome[] {
  const namespace = route.metadata.namespace ?? ''
  const result = report.routes[0]
  const outcomes: Outcome[] = []
  for (const entry of route.status?.parents ?? []) {
    if (entry.controllerName !== controllerName) continue
    const ref = normalizeParentRef(entry.parentRef, namespace)
    const parent = result?.parents.find((p) => sameRef(p.parentRef, ref))
    outcomes.push({
      moment,
      route: `${route.kind} ${namespace}/${route.metadata.name}`,
      parent: showRef(ref),
      ...writtenVerdict(entry),
      ...predictedVerdict(parent)
    })
  }
  return outcomes
}

/** The Routes of a moment that carry the recorded controller's status. */
export function writtenRoutes(moment: Moment, controllerName: string): RouteWithStatus[] {
  return (moment.objects as RouteWithStatus[]).filter(
    (o) =>
      ROUTE_KINDS.has(o.kind) &&
      (o.status?.parents ?? []).some((p) => p.controllerName === controllerName)
  )
}

/** The Route as the pull request would add it: its metadata (creationTimestamp too), no status. */
export function manifestText(route: RouteWithStatus): string {
  const { status: _status, ...manifest } = route
  return stringify(manifest)
}

export async function predictRoute(
  read: Pick<PredictInput, 'cluster' | 'source'>,
  route: RouteWithStatus,
  now: Date
): Promise<PredictReport> {
  const manifests = await parseManifestText(manifestText(route), MANIFEST_FILE)
  const key = keyOf(route)
  const cluster = read.cluster.filter((d: ManifestDocument) => keyOf(d.object) !== key)
  return predict({
    cluster,
    manifests,
    source: read.source,
    now,
    settings: SETTINGS,
    toolVersion: TOOL_VERSION,
    explain: explainRoute
  })
}

export async function replayMoment(
  moment: Moment,
  controllerName: string,
  flavour: Flavour
): Promise<Outcome[]> {
  const routes = writtenRoutes(moment, controllerName)
  if (routes.length === 0) return []
  const read = await readCluster(dumpText(moment, flavour))
  const now = new Date(moment.header.takenAt)
  const outcomes: Outcome[] = []
  for (const route of routes) {
    const report = await predictRoute(read, route, now)
    outcomes.push(...judge(moment.name, route, controllerName, report))
  }
  return outcomes
}

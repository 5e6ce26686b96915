// The recorded moments, compact: per controller one YAML file whose first document is the dump
// taken with the base manifests alone and every later document one test file's moment as what
// differs from the moment before it. Decoding rebuilds each moment's whole dump, header included.
import { parseAllDocuments, stringify } from 'yaml'
import type { DumpHeader } from '../../src/read/dump-header.ts'
import { ROUTE_KINDS, type KubeObject } from '../../src/model/types.ts'

export interface Recording {
  controller: string
  controllerName: string
  gatewayClass: string
  moments: Moment[]
}

export interface Moment {
  /** `base`, or the conformance test file without .yaml */
  name: string
  header: DumpHeader
  /** the dump's items, in the dump's order */
  objects: KubeObject[]
  /** Routes of the recorded controller's Gateways: those written in time, and those never */
  waited?: { settled: string[]; timedOut: string[] }
  /** documents the API server refused (CEL, schema), with its message */
  rejected?: { object: string; message: string }[]
}

interface BaseDocument {
  recording: Omit<Recording, 'moments'>
  moment: 'base'
  header: DumpHeader
  objects: KubeObject[]
}

interface MomentDocument {
  moment: string
  /** only takenAt when the rest equals the base's header */
  header: Partial<DumpHeader> & { takenAt: string }
  waited?: Moment['waited']
  rejected?: Moment['rejected']
  /** objects of the moment before that this one lacks */
  removed?: string[]
  /**
   * Objects whose status alone differs only in its lastTransitionTime values: Contour stamps a new
   * time on its Gateways at every rebuild. The new times in key order, or one for all.
   */
  retimed?: { object: string; times: string | string[] }[]
  /** objects that differ in status alone */
  status?: { object: string; status: unknown }[]
  /** objects new in this moment, or changed beyond their status */
  objects?: KubeObject[]
}

const KIND_ORDER = [
  'GatewayClass',
  'Gateway',
  'ListenerSet',
  'XListenerSet',
  ...ROUTE_KINDS,
  'Namespace',
  'Service',
  'ReferenceGrant'
]

export function keyOf(o: KubeObject): string {
  return `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`
}

/** The dump's order: kind by kind as route-gate lists them, each list in the API server's key order. */
export function dumpOrder(a: KubeObject, b: KubeObject): number {
  const rank = (o: KubeObject): number => {
    const i = KIND_ORDER.indexOf(o.kind)
    return i === -1 ? KIND_ORDER.length : i
  }
  const path = (o: KubeObject): string => `${o.metadata.namespace ?? ''}/${o.metadata.name}`
  const [pa, pb] = [path(a), path(b)]
  return rank(a) - rank(b) || (pa < pb ? -1 : pa > pb ? 1 : 0)
}

/** Stable text of a value, keys sorted: the API server does not keep an object's key order. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

/** resourceVersion changes on every write and says nothing a replay reads. */
export function stripVolatile(o: KubeObject): KubeObject {
  const {
    resourceVersion: _rv,
    uid: _uid,
    managedFields: _mf,
    ...metadata
  } = o.metadata as Record<string, unknown>
  return { ...o, metadata: metadata as KubeObject['metadata'] }
}

function withoutStatus(o: KubeObject): KubeObject {
  const { status: _status, ...rest } = o as KubeObject & { status?: unknown }
  return rest
}

/** Every lastTransitionTime in `value`, keys visited in sorted order. */
function times(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) times(v, out)
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (k === 'lastTransitionTime' && typeof v === 'string') out.push(v)
      else times(v, out)
    }
  }
  return out
}

/** `value` with its lastTransitionTime values replaced, in the order times() reads them. */
function retime(value: unknown, next: () => string): unknown {
  if (Array.isArray(value)) return value.map((v) => retime(v, next))
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    out[k] = k === 'lastTransitionTime' && typeof v === 'string' ? next() : retime(v, next)
  // the object's own key order, as the API server wrote it
  return Object.fromEntries(Object.keys(value).map((k) => [k, out[k]]))
}

function applyTimes(status: unknown, stored: string | string[]): unknown {
  let i = 0
  return retime(status, () => (typeof stored === 'string' ? stored : (stored[i++] ?? '')))
}

const statusOf = (o: KubeObject): unknown => (o as { status?: unknown }).status ?? null

function retimedEntry(
  before: KubeObject,
  after: KubeObject
): NonNullable<MomentDocument['retimed']>[number] | undefined {
  const now = times(statusOf(after))
  if (now.length === 0) return undefined
  const stored = now.every((t) => t === now[0]) ? now[0]! : now
  const rebuilt = applyTimes(statusOf(before), stored)
  return canonical(rebuilt) === canonical(statusOf(after))
    ? { object: keyOf(after), times: stored }
    : undefined
}

function diff(previous: Map<string, KubeObject>, moment: Moment): MomentDocument {
  const seen = new Set<string>()
  const retimed: NonNullable<MomentDocument['retimed']> = []
  const status: NonNullable<MomentDocument['status']> = []
  const objects: KubeObject[] = []
  for (const o of moment.objects) {
    const key = keyOf(o)
    seen.add(key)
    const before = previous.get(key)
    if (before !== undefined && canonical(before) === canonical(o)) continue
    if (before === undefined || canonical(withoutStatus(before)) !== canonical(withoutStatus(o))) {
      objects.push(o)
      continue
    }
    const entry = retimedEntry(before, o)
    if (entry) retimed.push(entry)
    else status.push({ object: key, status: statusOf(o) })
  }
  const removed = [...previous.keys()].filter((k) => !seen.has(k))
  return {
    moment: moment.name,
    header: moment.header,
    ...(moment.waited ? { waited: moment.waited } : {}),
    ...(moment.rejected && moment.rejected.length > 0 ? { rejected: moment.rejected } : {}),
    ...(removed.length > 0 ? { removed } : {}),
    ...(retimed.length > 0 ? { retimed } : {}),
    ...(status.length > 0 ? { status } : {}),
    ...(objects.length > 0 ? { objects } : {})
  }
}

function shortHeader(header: DumpHeader, base: DumpHeader): MomentDocument['header'] {
  const { takenAt, ...rest } = header
  const { takenAt: _taken, ...baseRest } = base
  return canonical(rest) === canonical(baseRest) ? { takenAt } : header
}

export function encode(recording: Recording): string {
  const [base, ...rest] = recording.moments
  if (base === undefined || base.name !== 'base') throw new Error('the first moment must be base')
  const { moments: _moments, ...meta } = recording
  const first: BaseDocument = {
    recording: meta,
    moment: 'base',
    header: base.header,
    objects: base.objects
  }
  const docs: unknown[] = [first]
  let previous = new Map(base.objects.map((o) => [keyOf(o), o]))
  for (const m of rest) {
    docs.push({ ...diff(previous, m), header: shortHeader(m.header, base.header) })
    previous = new Map(m.objects.map((o) => [keyOf(o), o]))
  }
  return docs.map((d) => stringify(d, { lineWidth: 0 })).join('---\n')
}

function rebuild(previous: Moment, doc: MomentDocument, header: DumpHeader): Moment {
  const objects = new Map(previous.objects.map((o) => [keyOf(o), o]))
  const replaceStatus = (object: string, status: (before: KubeObject) => unknown): void => {
    const before = objects.get(object)
    if (before === undefined) throw new Error(`${doc.moment}: status for unknown ${object}`)
    const next = status(before)
    objects.set(object, { ...withoutStatus(before), ...(next === null ? {} : { status: next }) })
  }
  for (const key of doc.removed ?? []) objects.delete(key)
  for (const { object, times } of doc.retimed ?? [])
    replaceStatus(object, (before) => applyTimes(statusOf(before), times))
  for (const { object, status } of doc.status ?? []) replaceStatus(object, () => status)
  for (const o of doc.objects ?? []) objects.set(keyOf(o), o)
  return {
    name: doc.moment,
    header: { ...header, ...doc.header },
    objects: [...objects.values()].sort(dumpOrder),
    ...(doc.waited ? { waited: doc.waited } : {}),
    ...(doc.rejected ? { rejected: doc.rejected } : {})
  }
}

export function decode(text: string): Recording {
  const docs = parseAllDocuments(text).map((d) => d.toJS() as unknown)
  const [first, ...rest] = docs as [BaseDocument, ...MomentDocument[]]
  if (first?.moment !== 'base') throw new Error('a recording starts with its base moment')
  const moments: Moment[] = [{ name: 'base', header: first.header, objects: first.objects }]
  for (const doc of rest) moments.push(rebuild(moments[moments.length - 1]!, doc, first.header))
  return { ...first.recording, moments }
}

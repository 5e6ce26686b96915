// When a moment is ready to dump: every Route of the recorded controller's Gateways carries that
// controller's status for its current generation (or never will, within a bound), and then nothing
// the controllers write changes any more.
import { setTimeout as sleep } from 'node:timers/promises'
import { canonical } from './fixture-format.ts'
import { read } from './plane.ts'
import { isRouteKind, type Manifest, type Target } from './source.ts'

const G = 'gateway.networking.k8s.io'

interface Ref {
  group?: string
  kind?: string
  namespace?: string
  name: string
  sectionName?: string
  port?: number
}

interface Condition {
  type: string
  reason?: string
  observedGeneration?: number
}

interface Read {
  metadata: { generation?: number }
  status?: {
    conditions?: Condition[]
    parents?: { parentRef: Ref; controllerName: string; conditions?: Condition[] }[]
  }
}

export interface Tracked {
  route: Manifest
  /** the parentRefs that name a Gateway of the recorded class, directly or through a ListenerSet */
  refs: Ref[]
}

const show = (o: Manifest): string => `${o.kind} ${o.metadata.namespace ?? ''}/${o.metadata.name}`

function sameRef(a: Ref, b: Ref, namespace: string): boolean {
  return (
    (a.group ?? G) === (b.group ?? G) &&
    (a.kind ?? 'Gateway') === (b.kind ?? 'Gateway') &&
    (a.namespace ?? namespace) === (b.namespace ?? namespace) &&
    a.name === b.name &&
    a.sectionName === b.sectionName &&
    a.port === b.port
  )
}

/** The Routes among `applied` that the recorded controller should answer, with the parents it serves. */
export function trackedRoutes(applied: Manifest[], known: Manifest[], target: Target): Tracked[] {
  const ours = new Set(
    known
      .filter(
        (o) => o.kind === 'Gateway' && o.spec?.gatewayClassName === target.controller.gatewayClass
      )
      .map((o) => `${o.metadata.namespace}/${o.metadata.name}`)
  )
  const listenerSetParent = (namespace: string, name: string): string | undefined => {
    const set = known.find(
      (o) =>
        (o.kind === 'ListenerSet' || o.kind === 'XListenerSet') &&
        o.metadata.namespace === namespace &&
        o.metadata.name === name
    )
    const parent = set?.spec?.parentRef as Ref | undefined
    return parent === undefined ? undefined : `${parent.namespace ?? namespace}/${parent.name}`
  }
  const tracked: Tracked[] = []
  for (const route of applied.filter((o) => isRouteKind(o.kind))) {
    const namespace = route.metadata.namespace ?? 'default'
    const refs = ((route.spec?.parentRefs ?? []) as Ref[]).filter((ref) => {
      const ns = ref.namespace ?? namespace
      const kind = ref.kind ?? 'Gateway'
      if (kind === 'Gateway') return ours.has(`${ns}/${ref.name}`)
      const parent = kind.endsWith('ListenerSet') ? listenerSetParent(ns, ref.name) : undefined
      return parent !== undefined && ours.has(parent)
    })
    if (refs.length > 0) tracked.push({ route, refs })
  }
  return tracked
}

function answered(read: Read | undefined, t: Tracked, controllerName: string): boolean {
  const generation = read?.metadata.generation
  const namespace = t.route.metadata.namespace ?? 'default'
  return t.refs.every((ref) =>
    (read?.status?.parents ?? []).some(
      (p) =>
        p.controllerName === controllerName &&
        sameRef(p.parentRef, ref, namespace) &&
        (p.conditions ?? []).some(
          (c) => c.type === 'Accepted' && c.observedGeneration === generation
        )
    )
  )
}

export async function waitRoutes(
  tracked: Tracked[],
  controllerName: string,
  ms: number
): Promise<{ settled: string[]; timedOut: string[] }> {
  const deadline = Date.now() + ms
  const pending = new Set(tracked)
  const settled: string[] = []
  while (pending.size > 0 && Date.now() < deadline) {
    for (const t of [...pending]) {
      if (!answered((await read(t.route)) as Read | undefined, t, controllerName)) continue
      pending.delete(t)
      settled.push(show(t.route))
    }
    if (pending.size > 0) await sleep(200)
  }
  return { settled: settled.sort(), timedOut: [...pending].map((t) => show(t.route)).sort() }
}

/** Gateways first: a Route is judged against its Gateway's listeners, which must be answered. */
export async function waitGateways(
  gateways: { namespace: string; name: string }[],
  _controllerName: string,
  ms: number
): Promise<void> {
  const deadline = Date.now() + ms
  for (const g of gateways) {
    const object: Manifest = { apiVersion: `${G}/v1`, kind: 'Gateway', metadata: g }
    while (Date.now() < deadline) {
      const read_ = (await read(object)) as Read | undefined
      const accepted = read_?.status?.conditions?.find((c) => c.type === 'Accepted')
      if (
        accepted?.reason !== 'Pending' &&
        accepted?.observedGeneration === read_?.metadata.generation
      )
        break
      await sleep(200)
    }
  }
}

function statusText(object: Read | undefined): string {
  // Contour stamps a new lastTransitionTime on every TCPRoute at every rebuild, content unchanged
  return canonical(object?.status ?? null).replace(/"lastTransitionTime":"[^"]*"/g, '')
}

/** Until the status of `objects` has not changed for a second (at most six). */
export async function settle(objects: Manifest[]): Promise<void> {
  const deadline = Date.now() + 6_000
  let last = ''
  let since = Date.now()
  while (Date.now() < deadline) {
    const now: string[] = []
    for (const o of objects) now.push(statusText((await read(o)) as Read | undefined))
    const text = now.join('\n')
    if (text !== last) {
      last = text
      since = Date.now()
    } else if (Date.now() - since >= 1_000) return
    await sleep(250)
  }
}

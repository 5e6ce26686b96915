// check --manifests after a merge: a GitOps tool (Argo CD, Flux) applies the files when it syncs, and
// until then the Routes' status describes what ran before the merge. Judged as it is, a stale Route
// passes: the worst thing a gate can do. So a Route of the files is held (NotSynced) until its live
// object carries its file, and until the Namespaces, Services and Gateway API objects of the files
// carry theirs (read here, once and then every second until they do). until-annotation holds every
// gated Route the same way until it carries the revision marker.
import { KNOWN_DEFAULTS, type Defaults } from '../../model/api-defaults.ts'
import { firstDifference, lastWriter, type Difference } from '../../model/carries.ts'
import { isRouteObject } from '../../model/kinds.ts'
import { apiGroupOf } from '../../model/owner.ts'
import { routeIdOf, routeKey, routeRef } from '../../model/route-id.ts'
import { EXPERIMENTAL_GROUP, GATEWAY_GROUP } from '../../model/types.ts'
import type { KubeObject, RouteObject } from '../../model/types.ts'
import type { ManifestDocument } from '../../read/manifests.ts'
import { describeDifference, waitingForAnnotation, waitingToCarry } from '../../wording/sync.ts'
import type { GateRun } from './gate-run.ts'

const POLL_MS = 1000

/** What a Route waits for, and the object whose last writer the deadline names. */
export interface Hold {
  message: string
  object: KubeObject
  /** that object as last read, managedFields included, when it was read whole */
  live?: KubeObject
}

interface Other {
  doc: ManifestDocument
  /** 'carried', 'forbidden', or what it still waits for */
  state: string
  live?: KubeObject
}

/** Still waited for: neither carried nor unreadable. */
const waiting = (other: Other): boolean => other.state !== 'carried' && other.state !== 'forbidden'

const GATEWAY_GROUPS = new Set([GATEWAY_GROUP, EXPERIMENTAL_GROUP])

/** The kinds whose objects shape a Route's status: Namespaces, Services and the Gateway API's own. */
function shapesRoutes(object: KubeObject): boolean {
  const group = apiGroupOf(object)
  return (
    GATEWAY_GROUPS.has(group) || (group === '' && ['Namespace', 'Service'].includes(object.kind))
  )
}

function builtInDefaults(object: KubeObject): Defaults | undefined {
  if (!GATEWAY_GROUPS.has(apiGroupOf(object))) return undefined
  return KNOWN_DEFAULTS.get(object.kind.replace(/^X(?=ListenerSet$)/, ''))
}

function objectId(object: KubeObject, namespace: string | undefined): string {
  const ns = object.kind === 'Namespace' ? undefined : (object.metadata.namespace ?? namespace)
  return `${object.kind} ${ns === undefined ? '' : `${ns}/`}${object.metadata.name}`
}

export class CarryWatch {
  private readonly routes = new Map<string, ManifestDocument>()
  private readonly others: Other[] = []
  /** the served schema's defaults by apiVersion/kind: asked once, when the built-in table is not enough */
  private readonly served = new Map<string, Defaults | undefined>()
  private changed: () => void = () => {}
  private timer: NodeJS.Timeout | undefined
  private ended = false

  /** docs: the files check compares with the cluster ([] when the gate applied them itself) */
  constructor(
    private readonly run: GateRun,
    docs: ManifestDocument[],
    private readonly namespace: string
  ) {
    for (const doc of docs) {
      const { object } = doc
      if (isRouteObject(object)) {
        const key = { ...routeRef(object), namespace: object.metadata.namespace ?? namespace }
        this.routes.set(routeKey(key), doc)
      } else if (shapesRoutes(object)) this.others.push({ doc, state: 'unread' })
    }
  }

  /** What the Route waits for before it is judged, or undefined when it is judged as it is. */
  hold(route: RouteObject): Hold | undefined {
    const marker = this.run.settings.untilAnnotation
    const had = marker === undefined ? undefined : route.metadata.annotations?.[marker.key]
    if (marker !== undefined && had !== marker.value) {
      return { message: waitingForAnnotation(routeIdOf(route), marker, had), object: route }
    }
    const doc = this.routes.get(routeKey(routeRef(route)))
    if (doc === undefined) return undefined
    const difference = this.difference(doc.object, route)
    if (difference !== undefined) {
      return { message: waitingToCarry(doc.file, describeDifference(difference)), object: route }
    }
    const other = this.others.find(waiting)
    return other && { message: other.state, object: other.doc.object, live: other.live }
  }

  /** Reads the other objects of the files, then keeps reading those not carried until they are. */
  async start(changed: () => void): Promise<void> {
    this.changed = changed
    await this.readOthers()
    this.schedule()
  }

  end(): void {
    this.ended = true
    clearTimeout(this.timer)
  }

  /** Objects of the files the account may not read: not waited for, and said so. */
  notes(): string[] {
    return this.others
      .filter((o) => o.state === 'forbidden')
      .map(
        (o) =>
          `Could not compare ${objectId(o.doc.object, this.namespace)} of ${o.doc.file} with the cluster (get is forbidden): its Routes were judged without waiting for it to carry the file.`
      )
  }

  /** At the deadline: what last wrote the object each held Route waits for, by Route key. */
  async writers(routes: RouteObject[]): Promise<Map<string, string>> {
    const found = new Map<string, string>()
    await Promise.all(
      routes.map(async (route) => {
        const held = this.hold(route)
        if (held === undefined) return
        const live = held.live ?? (await this.run.cluster.readObject(held.object, this.namespace))
        const writer = typeof live === 'string' ? undefined : lastWriter(live)
        if (writer !== undefined) found.set(routeKey(routeRef(route)), writer)
      })
    )
    return found
  }

  private difference(file: KubeObject, live: KubeObject): Difference | undefined {
    const key = `${file.apiVersion}/${file.kind}`
    const table = builtInDefaults(file)
    const defaults = this.served.get(key) ?? table
    const difference = firstDifference(file, live, defaults)
    // a field only the live spec holds may be a default newer than the table: the server knows
    if (difference?.file === undefined && table !== undefined && !this.served.has(key)) {
      this.served.set(key, undefined)
      this.run.cluster.servedDefaults(file.apiVersion, file.kind).then(
        (served) => {
          if (served === undefined) return
          this.served.set(key, served)
          this.changed()
        },
        () => {}
      )
    }
    return difference
  }

  private async readOthers(): Promise<void> {
    await Promise.all(this.others.filter(waiting).map((other) => this.readOther(other)))
  }

  private async readOther(other: Other): Promise<void> {
    const { doc } = other
    const live = await this.run.cluster.readObject(doc.object, this.namespace)
    const id = objectId(doc.object, this.namespace)
    if (live === 'forbidden' || live === 'absent') {
      other.state =
        live === 'forbidden' ? live : waitingToCarry(doc.file, `${id} does not exist yet`)
      return
    }
    other.live = live
    const difference = this.difference(doc.object, live)
    other.state =
      difference === undefined
        ? 'carried'
        : waitingToCarry(`${doc.file} (${id})`, describeDifference(difference))
  }

  private schedule(): void {
    if (this.ended || !this.others.some(waiting)) return
    this.timer = setTimeout(() => {
      const before = this.others.map((o) => o.state).join('\n')
      // a read that fails now is tried again at the next poll; the wait's deadline bounds them all
      void this.readOthers()
        .catch(() => {})
        .then(() => {
          if (this.ended) return
          if (this.others.map((o) => o.state).join('\n') !== before) this.changed()
          this.schedule()
        })
    }, POLL_MS)
  }
}

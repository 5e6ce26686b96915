// Every fix is proven before it is printed: the world with the fix made is predicted, for the Route it
// fixes and for every Route with a parent on what it changes. Fixes of one object are made together.
// Pure: the report's Routes in, the same Routes with each fix's proof out.
import { isRouteObject } from '../model/kinds.ts'
import { apiGroupOf } from '../model/owner.ts'
import { formatParentRef } from '../model/parent-ref.ts'
import { routeParentRefs } from '../model/route-spec.ts'
import type {
  Fix,
  FixProof,
  FixTarget,
  KubeObject,
  ParentRef,
  Problem,
  RouteObject,
  ReportVerdict,
  RouteResult
} from '../model/types.ts'
import { arrayField, isRecord } from '../model/unknown.ts'
import { conflictState, contested, routesByGateway } from './contested.ts'
import type { ConflictState } from './contested.ts'
import { withObject, type Objects } from './overlay.ts'
import { predictParent, predictedConditions, verdictOf } from './rules.ts'
import { mergeChanges } from './merge-fix.ts'

/** Proofs per run: each predicts the Routes on one object, so a run with thousands stays bounded. */
export const MAX_PROOFS = 100

export interface ProofWorld {
  /** called only when some problem has a fix: indexing a whole dump costs its size */
  objects: () => Objects
  /** the Routes the change creates (predict): younger than every Route of the cluster */
  created?: ReadonlySet<RouteObject>
  /** the conditions a ready parent needs */
  required: string[]
  /** predict: where the pull request defines an object, by fixKey */
  definedAt?: (target: FixTarget) => { file: string; line: number } | undefined
}

/** One problem's claim on a fix: the Route and parent it is about, and the reason that must go. */
interface Claim {
  route: string
  ref?: ParentRef
  reason: string
  fix: Fix
}

interface Judged {
  verdict: 'ready' | 'failed' | 'unknown'
  reasons: string[]
}

const routeKey = (kind: string, namespace: string | undefined, name: string): string =>
  `${kind} ${namespace ?? ''}/${name}`

function targetKey(target: FixTarget): string {
  const group = apiGroupOf({ apiVersion: target.apiVersion, kind: target.kind, metadata: target })
  return `${group}\u0000${routeKey(target.kind, target.namespace, target.name)}`
}

class Prover {
  private readonly state: ConflictState
  private readonly onParent = new Map<string, RouteObject[]>()
  private readonly inNamespace = new Map<string, RouteObject[]>()
  private readonly routes = new Map<string, RouteObject>()
  private readonly before = new Map<string, Judged[]>()
  private readonly objects: Objects
  private readonly world: ProofWorld

  constructor(world: ProofWorld) {
    this.world = world
    this.objects = world.objects()
    this.state = conflictState(this.objects, world.created)
    for (const route of this.objects.routes) {
      const { namespace, name } = route.metadata
      this.routes.set(routeKey(route.kind, namespace, name), route)
      push(this.inNamespace, namespace, route)
      for (const ref of routeParentRefs(route)) push(this.onParent, parentKey(ref), route)
    }
  }

  /** Each parent of the Route, predicted against `objects` with `state`'s conflicts. */
  judge(route: RouteObject, objects: Objects, state: ConflictState): Judged[] {
    return routeParentRefs(route).map((ref, i) => {
      const prediction = contested(route, i, predictParent(route, ref, objects), state)
      const reasons = predictedConditions(prediction)
        .filter((c) => c.status === 'False')
        .map((c) => c.reason ?? '')
      if (prediction.parent?.status === 'False') reasons.push(prediction.parent.reason)
      return { verdict: verdictOf(prediction, this.world.required), reasons }
    })
  }

  private judgedBefore(route: RouteObject): Judged[] {
    const key = routeKey(route.kind, route.metadata.namespace, route.metadata.name)
    let judged = this.before.get(key)
    if (!judged) this.before.set(key, (judged = this.judge(route, this.objects, this.state)))
    return judged
  }

  /** The Routes whose parents could change: on a changed parent, or in a changed namespace. */
  private affected(before: KubeObject | undefined, after: KubeObject): RouteObject[] {
    const out = new Set<RouteObject>()
    const add = (list: RouteObject[] | undefined): void => list?.forEach((r) => out.add(r))
    for (const object of before ? [before, after] : [after]) {
      const { namespace, name } = object.metadata
      if (isRouteObject(object)) {
        for (const ref of routeParentRefs(object)) add(this.onParent.get(parentKey(ref)))
      } else if (object.kind === 'Namespace') add(this.inNamespace.get(name))
      else if (object.kind === 'ReferenceGrant') {
        for (const from of arrayField(object.spec, 'from') ?? [])
          if (isRecord(from) && typeof from.namespace === 'string')
            add(this.inNamespace.get(from.namespace))
      } else add(this.onParent.get(`${object.kind}\u0000${namespace ?? ''}/${name}`))
    }
    return [...out]
  }

  /** The original of a fix's target in the world, if it is there. */
  private original(target: FixTarget): KubeObject | undefined {
    const { objects } = this
    const { kind, namespace = '', name } = target
    if (kind === 'Gateway') return objects.gateway(namespace, name)
    if (kind === 'Namespace') return objects.namespace(name)
    if (kind === 'GatewayClass') return objects.gatewayClass(name)
    if (kind === 'Service') return objects.service(namespace, name)
    const route = this.routes.get(routeKey(kind, namespace, name))
    if (route) return route
    const list = [...objects.world.referenceGrants, ...(objects.world.listenerSets ?? [])]
    return list.find(
      (o) => o.kind === kind && o.metadata.namespace === namespace && o.metadata.name === name
    )
  }

  prove(claims: Claim[]): FixProof {
    const first = claims[0]?.fix
    if (!first?.object) return { state: 'unproven', text: 'no object to predict with' }
    const before = this.original(first.target)
    if (first.action === 'patch' && before === undefined)
      return { state: 'unproven', text: `${first.target.kind} is not in the source` }
    const merged = mergeChanges(
      before,
      claims.map((c) => c.fix.object as KubeObject)
    )
    if (merged === undefined)
      return { state: 'unproven', text: 'the fixes of this object change the same field' }
    const after = before ? asServerKeeps(merged, before) : merged
    const objects = withObject(this.objects, after, before)
    const state: ConflictState = {
      ...conflictState(objects, this.world.created),
      // a change to no Route leaves the Routes on each Gateway as they are: the map is built once
      ...(isRouteObject(after)
        ? {}
        : {
            routesByGateway: (this.state.routesByGateway ??= routesByGateway(this.objects.routes))
          })
    }
    return this.compare(claims, before, after, objects, state)
  }

  private compare(
    claims: Claim[],
    before: KubeObject | undefined,
    after: KubeObject,
    objects: Objects,
    state: ConflictState
  ): FixProof {
    const detaches: string[] = []
    const unknown: string[] = []
    const fixed: string[] = []
    const changedRoute = isRouteObject(after) ? after : undefined
    const routes = this.affected(before, after)
    if (changedRoute && !routes.includes(changedRoute)) routes.push(changedRoute)
    for (const route of routes) {
      const id = routeKey(route.kind, route.metadata.namespace, route.metadata.name)
      const was =
        route === changedRoute && before
          ? this.judgedBefore(before as RouteObject)
          : this.judgedBefore(route)
      const now = this.judge(route, objects, state)
      const refs = routeParentRefs(route)
      now.forEach((judged, i) => {
        const ref = refs[i]
        if (!ref) return
        const where = `${id} on ${formatParentRef(ref, route.metadata.namespace)}`
        const claim = claims.find(
          (c) => c.route === id && (c.ref === undefined || sameRef(c.ref, ref))
        )
        if (claim) {
          if (judged.verdict === 'unknown') unknown.push(where)
          else if (judged.reasons.includes(claim.reason))
            unknown.push(`${where} (still ${claim.reason})`)
          else
            fixed.push(
              `${where} ${judged.verdict === 'ready' ? 'becomes ready' : `loses ${claim.reason}`}`
            )
        } else {
          // a parent it has, or may have: one predict cannot tell either way is not proven kept
          const had = was[i]?.verdict ?? 'unknown'
          if (judged.verdict === 'ready' || had === 'failed') return
          ;(judged.verdict === 'failed' && had === 'ready' ? detaches : unknown).push(where)
        }
      })
    }
    const others = routes.length - new Set(claims.map((c) => c.route)).size
    return verdictText(fixed, detaches, unknown, others)
  }
}

/**
 * What the API server keeps of an object a user applies: its status, until the controller writes
 * again, and its server-set metadata, so a Route keeps its age among Routes that contest a match.
 */
function asServerKeeps(object: KubeObject, before: KubeObject): KubeObject {
  return {
    ...object,
    metadata: { ...before.metadata, ...object.metadata },
    ...(before.status === undefined ? {} : { status: before.status })
  }
}

function verdictText(
  fixed: string[],
  detaches: string[],
  unknown: string[],
  others: number
): FixProof {
  if (detaches.length > 0)
    return { state: 'detaches', text: `${detaches.join('; ')} would lose the parent`, detaches }
  if (unknown.length > 0 || fixed.length === 0)
    return {
      state: 'unproven',
      text:
        unknown.length > 0
          ? `predicted with the change, it cannot be told for ${unknown.join('; ')}`
          : 'predicted with the change, the Route it is for is not among the Routes it touches'
    }
  const rest =
    others > 0
      ? `; ${others} other Route${others === 1 ? '' : 's'} checked, none loses a parent`
      : ''
  return { state: 'proven', text: `${fixed.join('; ')}${rest}` }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key)
  if (list) list.push(value)
  else map.set(key, [value])
}

const parentKey = (ref: ParentRef): string => `${ref.kind}\u0000${ref.namespace}/${ref.name}`

const sameRef = (a: ParentRef, b: ParentRef): boolean =>
  a.kind === b.kind &&
  a.group === b.group &&
  a.namespace === b.namespace &&
  a.name === b.name &&
  a.sectionName === b.sectionName &&
  a.port === b.port

const ORDER: Record<FixProof['state'], number> = { proven: 0, unproven: 1, detaches: 2 }

/** Whether any problem of these Routes has a fix to prove: a live proof reads the cluster first. */
export function hasFixes<V extends ReportVerdict>(routes: RouteResult<V>[]): boolean {
  return claimsOf(routes).size > 0
}

/** The claims of every problem of every Route, by the object their fix changes. */
function claimsOf<V extends ReportVerdict>(routes: RouteResult<V>[]): Map<string, Claim[]> {
  const byTarget = new Map<string, Claim[]>()
  for (const r of routes) {
    const route = routeKey(r.kind, r.namespace, r.name)
    const add = (problems: Problem[] | undefined, ref?: ParentRef): void => {
      for (const problem of problems ?? [])
        for (const fix of problem.fixes ?? [])
          push(byTarget, `${fix.action}\u0000${targetKey(fix.target)}`, {
            route,
            ...(ref ? { ref } : {}),
            reason: problem.reason,
            fix
          })
    }
    add(r.problems)
    for (const parent of r.parents) add(parent.problems, parent.parentRef)
  }
  return byTarget
}

/**
 * Each fix of each problem, with its proof and, in predict, the manifest that defines its object;
 * within a problem, proven fixes first and those that detach Routes last.
 */
export function proveFixes<V extends ReportVerdict>(
  routes: RouteResult<V>[],
  /** the world to predict in, or why there is none (a live read that failed) */
  world: ProofWorld | string
): RouteResult<V>[] {
  const byTarget = claimsOf(routes)
  if (byTarget.size === 0) return routes
  const prover = typeof world === 'string' ? undefined : new Prover(world)
  const proofs = new Map<Fix, FixProof>()
  let spent = 0
  for (const claims of byTarget.values()) {
    const proof: FixProof = !prover
      ? { state: 'unproven', text: world as string }
      : spent++ < MAX_PROOFS
        ? prover.prove(claims)
        : {
            state: 'unproven',
            text: `route-gate proves at most ${MAX_PROOFS} changed objects in one run`
          }
    for (const claim of claims) proofs.set(claim.fix, proof)
  }
  const definedAt = typeof world === 'string' ? undefined : world.definedAt
  const place = (fix: Fix): Fix => {
    const at = fix.file === undefined ? definedAt?.(fix.target) : undefined
    const { command: _command, ...rest } = fix
    const placed = at ? { ...rest, file: at.file, line: at.line } : fix
    const proof = proofs.get(fix)
    return proof ? { ...placed, proof } : placed
  }
  const withProofs = (problems: Problem[]): Problem[] =>
    problems.map((p) =>
      p.fixes === undefined
        ? p
        : {
            ...p,
            fixes: p.fixes
              .map(place)
              .sort(
                (a, b) => ORDER[a.proof?.state ?? 'unproven'] - ORDER[b.proof?.state ?? 'unproven']
              )
          }
    )
  return routes.map((r) => ({
    ...r,
    ...(r.problems === undefined ? {} : { problems: withProofs(r.problems) }),
    parents: r.parents.map((p) => ({ ...p, problems: withProofs(p.problems) }))
  }))
}

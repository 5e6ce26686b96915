// Which status entries belong to which spec parentRef (never by list position), and who owns a parent.
import type { StatusEntry } from './entries.ts'
import { GATEWAY_GROUP } from './types.ts'
import type { KubeObject, ParentRef, World } from './types.ts'
import { isRecord, stringField } from './unknown.ts'

function sameParent(a: ParentRef, b: ParentRef): boolean {
  return (
    a.group === b.group && a.kind === b.kind && a.namespace === b.namespace && a.name === b.name
  )
}

export function sameScope(a: ParentRef, b: ParentRef): boolean {
  return a.sectionName === b.sectionName && a.port === b.port
}

function isExact(entry: ParentRef, ref: ParentRef): boolean {
  return sameParent(entry, ref) && sameScope(entry, ref)
}

/** sectionName and port must be equal where the spec ref sets them; an unscoped ref owns every listener. */
function isWithin(entry: ParentRef, ref: ParentRef): boolean {
  return (
    sameParent(entry, ref) &&
    (ref.sectionName === undefined || entry.sectionName === ref.sectionName) &&
    (ref.port === undefined || entry.port === ref.port)
  )
}

export interface Assignment {
  /** entries per spec ref, in the order of `refs` */
  owned: StatusEntry[][]
  orphans: StatusEntry[]
}

/** An entry that exactly matches some ref belongs only there, not also to a wider ref of the same parent. */
export function assignEntries(refs: ParentRef[], entries: StatusEntry[]): Assignment {
  const owned: StatusEntry[][] = refs.map(() => [])
  const orphans: StatusEntry[] = []
  for (const entry of entries) {
    let targets = refs.flatMap((ref, i) => (isExact(entry.parentRef, ref) ? [i] : []))
    if (targets.length === 0) {
      targets = refs.flatMap((ref, i) => (isWithin(entry.parentRef, ref) ? [i] : []))
    }
    if (targets.length === 0) orphans.push(entry)
    for (const i of targets) owned[i]?.push(entry)
  }
  return { owned, orphans }
}

function findObject(
  objects: KubeObject[],
  name: string,
  namespace?: string
): KubeObject | undefined {
  return objects.find(
    (o) =>
      isRecord(o) &&
      stringField(o.metadata, 'name') === name &&
      (namespace === undefined || stringField(o.metadata, 'namespace') === namespace)
  )
}

/** The controllerName of the parent Gateway's GatewayClass, when both are known. */
export function ownerController(
  ref: ParentRef,
  world: Pick<World, 'gatewayClasses' | 'gateways'>
): string | undefined {
  if (ref.group !== GATEWAY_GROUP || ref.kind !== 'Gateway') return undefined
  const gateway = findObject(world.gateways, ref.name, ref.namespace)
  const className = stringField(gateway?.spec, 'gatewayClassName')
  if (!className) return undefined
  const gatewayClass = findObject(world.gatewayClasses, className)
  return stringField(gatewayClass?.spec, 'controllerName') || undefined
}

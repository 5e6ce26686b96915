// Which status entries belong to which spec parentRef (never by list position).
import type { StatusEntry } from './entries.ts'
import type { ParentRef } from './types.ts'

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
  /** indexes of the refs that took an entry written without their port (see portlessOwner) */
  portless: number[]
}

/** Whether an entry is one the verdict judges for this ref (its owner's, by rule 3). */
export type Judges = (ref: ParentRef, entry: StatusEntry) => boolean

/**
 * The ref an unscoped entry belongs to although it lacks the ref's port: some controllers (NGINX
 * Gateway Fabric) write neither port nor sectionName back. Only when exactly one ref names that parent,
 * that ref sets port and no sectionName, and the entry is the only one its owner wrote for the parent.
 */
function portlessOwner(
  entry: StatusEntry,
  refs: ParentRef[],
  entries: StatusEntry[],
  judges: Judges
): number | undefined {
  if (entry.parentRef.port !== undefined || entry.parentRef.sectionName !== undefined) return
  const claimants = refs.flatMap((ref, i) => (sameParent(entry.parentRef, ref) ? [i] : []))
  if (claimants.length !== 1) return undefined
  const i = claimants[0]!
  const ref = refs[i]!
  if (ref.port === undefined || ref.sectionName !== undefined || !judges(ref, entry)) return
  const judged = entries.filter((e) => sameParent(e.parentRef, ref) && judges(ref, e))
  return judged.length === 1 ? i : undefined
}

/** An entry that exactly matches some ref belongs only there, not also to a wider ref of the same parent. */
export function assignEntries(
  refs: ParentRef[],
  entries: StatusEntry[],
  judges: Judges
): Assignment {
  const owned: StatusEntry[][] = refs.map(() => [])
  const orphans: StatusEntry[] = []
  const portless: number[] = []
  for (const entry of entries) {
    let targets = refs.flatMap((ref, i) => (isExact(entry.parentRef, ref) ? [i] : []))
    if (targets.length === 0) {
      targets = refs.flatMap((ref, i) => (isWithin(entry.parentRef, ref) ? [i] : []))
    }
    if (targets.length === 0) {
      const i = portlessOwner(entry, refs, entries, judges)
      if (i !== undefined) {
        targets = [i]
        portless.push(i)
      }
    }
    if (targets.length === 0) orphans.push(entry)
    for (const i of targets) owned[i]?.push(entry)
  }
  return { owned, orphans, portless }
}

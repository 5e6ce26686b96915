// Several problems may each fix the same object (two listeners of one Gateway, two labels of one
// namespace, two backends one ReferenceGrant lets in): their changes are made together, so that the
// proof, and the reader, see the object as it would read with all of them.
import type { KubeObject } from '../model/types.ts'
import { isRecord } from '../model/unknown.ts'

const CONFLICT = Symbol('conflict')

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}

/**
 * `mine` and `theirs` each change `base`. Fields only one changed take its value; mappings both
 * changed are merged key by key; lists both changed are merged item by item where they keep the
 * base's length (listeners by position), else joined without repeats (a ReferenceGrant's `to`).
 */
function merge3(base: unknown, mine: unknown, theirs: unknown): unknown {
  if (same(mine, theirs) || same(base, theirs)) return mine
  if (same(base, mine)) return theirs
  if (isRecord(mine) && isRecord(theirs)) {
    const b = isRecord(base) ? base : {}
    const out: Record<string, unknown> = {}
    for (const key of new Set([...Object.keys(mine), ...Object.keys(theirs)])) {
      if (!(key in theirs) && same(b[key], undefined)) out[key] = mine[key]
      else if (!(key in mine) && same(b[key], undefined)) out[key] = theirs[key]
      else {
        const value = merge3(b[key], mine[key], theirs[key])
        if (value === CONFLICT) return CONFLICT
        if (value !== undefined) out[key] = value
      }
    }
    return out
  }
  if (Array.isArray(mine) && Array.isArray(theirs)) {
    const b: unknown[] = Array.isArray(base) ? (base as unknown[]) : []
    if (mine.length === b.length && theirs.length === b.length) {
      const out = mine.map((item, i) => merge3(b[i], item, theirs[i]))
      return out.includes(CONFLICT) ? CONFLICT : out
    }
    const joined: unknown[] = [...(mine as unknown[])]
    for (const item of theirs) if (!joined.some((m) => same(m, item))) joined.push(item)
    return joined
  }
  return CONFLICT
}

/** The object with every change made, or undefined when two change one field differently. */
export function mergeChanges(
  before: KubeObject | undefined,
  changes: KubeObject[]
): KubeObject | undefined {
  const [first, ...rest] = changes
  if (!first) return undefined
  let merged: unknown = first
  for (const next of rest) {
    merged = merge3(before, merged, next)
    if (merged === CONFLICT) return undefined
  }
  return merged as KubeObject
}

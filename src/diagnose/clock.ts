// The clock a dump carries: snapshot mode reads a dump at some later time, so ages are measured from
// the newest timestamp written into the dump itself, never from the time of reading it.
import type { KubeObject } from '../model/types.ts'

const TIMESTAMP_KEYS = new Set([
  'lastTransitionTime',
  'creationTimestamp',
  'deletionTimestamp',
  'time'
])

/** The newest RFC 3339 timestamp anywhere in the objects (conditions, metadata, managedFields). */
export function newestTimestamp(objects: KubeObject[]): Date | undefined {
  let newest = NaN
  const visit = (value: unknown, key: string | undefined): void => {
    if (typeof value === 'string') {
      if (key === undefined || !TIMESTAMP_KEYS.has(key)) return
      const at = Date.parse(value)
      if (!Number.isNaN(at) && !(at <= newest)) newest = at
      return
    }
    if (Array.isArray(value)) value.forEach((item) => visit(item, undefined))
    else if (typeof value === 'object' && value !== null) {
      for (const [k, v] of Object.entries(value)) visit(v, k)
    }
  }
  objects.forEach((o) => visit(o, undefined))
  return Number.isNaN(newest) ? undefined : new Date(newest)
}

// The clock a dump carries: snapshot mode reads a dump at some later time, so ages are measured from
// the newest timestamp written into the dump itself, never from the time of reading it.
import type { KubeObject } from './types.ts'

const TIMESTAMP_KEYS = new Set([
  'lastTransitionTime',
  'creationTimestamp',
  'deletionTimestamp',
  'time'
])

/**
 * The newest RFC 3339 timestamp the API server or a controller wrote into the objects: in metadata
 * (creation, deletion, managedFields) and status (conditions). A spec is what users wrote, so a field
 * there that happens to be called `time` is no clock, and a Route's spec is most of a dump.
 */
export function newestTimestamp(objects: KubeObject[]): Date | undefined {
  let newest = NaN
  const visit = (value: unknown, key: string | undefined): void => {
    if (typeof value === 'string') {
      if (key === undefined || !TIMESTAMP_KEYS.has(key)) return
      const at = Date.parse(value)
      if (!Number.isNaN(at) && !(at <= newest)) newest = at
      return
    }
    if (Array.isArray(value)) {
      for (const item of value) visit(item, undefined)
    } else if (typeof value === 'object' && value !== null) {
      // for…in, not Object.entries: no array of pairs per object of a 5,000-Route dump
      for (const k in value) {
        if (Object.hasOwn(value, k)) visit((value as Record<string, unknown>)[k], k)
      }
    }
  }
  for (const o of objects) {
    visit(o.metadata, undefined)
    visit(o.status, undefined)
  }
  return Number.isNaN(newest) ? undefined : new Date(newest)
}

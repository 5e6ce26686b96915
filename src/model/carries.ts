// Whether the live object carries a file: every field the file sets has that value in the live
// object. For a kind whose server defaults are known, the spec is also compared the other way: a
// field the live spec holds and the file does not set is a difference unless it is the server's
// default, because applying the file removes it (a filter or a rule dropped by the merge). Labels and
// annotations the file does not name are left alone: GitOps tools add their own. Pure.
import type { Defaults } from './api-defaults.ts'
import type { KubeObject } from './types.ts'
import { isRecord } from './unknown.ts'

/** Where the live object and the file part; `live` or `file` is undefined when that side has no such field. */
export interface Difference {
  path: string
  live?: { value: unknown }
  file?: { value: unknown }
}

// Fields that say what an object is or what the server made of it, never what a file asks for.
const NOT_ASKED = new Set(['apiVersion', 'kind', 'metadata', 'status'])

/**
 * The first difference between the file's object and the live one, or undefined when the live object
 * carries the file. `defaults`: the server's defaults for the kind, when all of them are known.
 */
export function firstDifference(
  file: KubeObject,
  live: KubeObject,
  defaults: Defaults | undefined
): Difference | undefined {
  for (const field of ['labels', 'annotations'] as const) {
    const wanted = file.metadata?.[field]
    if (!isRecord(wanted)) continue
    const had = isRecord(live.metadata?.[field]) ? live.metadata[field] : {}
    const d = new Comparison(undefined).record(wanted, had, '', `metadata.${field}`, false)
    if (d) return d
  }
  const comparison = new Comparison(defaults)
  const liveRecord = live as unknown as Record<string, unknown>
  for (const [field, value] of Object.entries(file)) {
    if (NOT_ASKED.has(field)) continue
    const strict = field === 'spec' && defaults !== undefined
    const d = comparison.field(value, liveRecord, field, field, field, strict)
    if (d) return d
  }
  return undefined
}

const isEmpty = (value: unknown): boolean =>
  value === undefined ||
  value === null ||
  (Array.isArray(value) && value.length === 0) ||
  (isRecord(value) && Object.keys(value).length === 0)

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/

function child(path: string, key: string): string {
  if (PLAIN_KEY.test(key)) return path === '' ? key : `${path}.${key}`
  return `${path}[${JSON.stringify(key)}]`
}

class Comparison {
  constructor(private readonly defaults: Defaults | undefined) {}

  /** `strict`: fields of the live side the file does not set must be defaults. */
  value(
    file: unknown,
    live: unknown,
    schema: string,
    path: string,
    strict: boolean
  ): Difference | undefined {
    if (Array.isArray(file)) {
      if (!Array.isArray(live) || live.length !== file.length)
        return { path, live: { value: live }, file: { value: file } }
      for (let i = 0; i < file.length; i++) {
        const d = this.value(file[i], live[i], `${schema}[]`, `${path}[${i}]`, strict)
        if (d) return d
      }
      return undefined
    }
    if (isRecord(file)) {
      if (!isRecord(live)) return { path, live: { value: live }, file: { value: file } }
      return this.record(file, live, schema, path, strict)
    }
    return file === live ? undefined : { path, live: { value: live }, file: { value: file } }
  }

  record(
    file: Record<string, unknown>,
    live: Record<string, unknown>,
    schema: string,
    path: string,
    strict: boolean
  ): Difference | undefined {
    for (const [key, value] of Object.entries(file)) {
      const d = this.field(value, live, key, child(schema, key), child(path, key), strict)
      if (d) return d
    }
    if (!strict) return undefined
    for (const [key, value] of Object.entries(live)) {
      if (key in file || isEmpty(value)) continue
      const at = child(schema, key)
      if (!this.isDefault(value, at)) return { path: child(path, key), live: { value } }
    }
    return undefined
  }

  /** One field the file names (null: the file unsets it) against the live object's. */
  field(
    value: unknown,
    live: Record<string, unknown>,
    key: string,
    schema: string,
    path: string,
    strict: boolean
  ): Difference | undefined {
    const had = live[key]
    if (value === null || value === undefined) {
      if (isEmpty(had) || this.isDefault(had, schema)) return undefined
      return { path, live: { value: had } }
    }
    if (had === undefined || had === null)
      return isEmpty(value) ? undefined : { path, file: { value } }
    return this.value(value, had, schema, path, strict)
  }

  private isDefault(value: unknown, schema: string): boolean {
    if (this.defaults === undefined) return false
    const fallback = this.defaults.get(schema)
    return fallback !== undefined && this.value(fallback, value, schema, '', true) === undefined
  }
}

/**
 * The object's last writer from metadata.managedFields: the manager of the newest entry that wrote
 * the object itself (status writes are the controllers'), as "kubectl (Update, 2026-12-07T08:00:00Z)".
 */
export function lastWriter(object: KubeObject): string | undefined {
  const entries = (object.metadata as Record<string, unknown> | undefined)?.managedFields
  if (!Array.isArray(entries)) return undefined
  let newest: Record<string, unknown> | undefined
  let newestTime = ''
  for (const entry of entries) {
    if (!isRecord(entry) || typeof entry.manager !== 'string') continue
    if (typeof entry.subresource === 'string' && entry.subresource !== '') continue
    // RFC 3339 times in UTC, as the API server writes them, order as text
    const time = typeof entry.time === 'string' ? entry.time : ''
    if (newest === undefined || time >= newestTime) [newest, newestTime] = [entry, time]
  }
  if (newest === undefined) return undefined
  const facts = [newest.operation, newest.time].filter((f) => typeof f === 'string')
  return `${String(newest.manager)}${facts.length > 0 ? ` (${facts.join(', ')})` : ''}`
}

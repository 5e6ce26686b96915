// How check says what it waits for: where the live object and the file part, and what wrote the
// object last.
import type { Difference } from '../model/carries.ts'
import { stripControl, truncate } from '../model/plain-text.ts'

const MAX_VALUE = 80

function shown(value: unknown): string {
  if (Array.isArray(value)) return `a list of ${value.length} item${value.length === 1 ? '' : 's'}`
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  return truncate(stripControl(text).replace(/\n/g, ' '), MAX_VALUE)
}

/** "spec.rules[0].backendRefs[0].name is web, the file says web-v2" */
export function describeDifference(d: Difference): string {
  const live = d.live === undefined ? 'is not set' : `is ${shown(d.live.value)}`
  const file =
    d.file === undefined ? 'the file does not set it' : `the file says ${shown(d.file.value)}`
  return `${d.path} ${live}, ${file}`
}

/** "waiting for the cluster to carry deploy/web.yaml: …" */
export function waitingToCarry(file: string, what: string): string {
  return `waiting for the cluster to carry ${stripControl(file)}: ${what}`
}

/** What a revision marker lacks: "waiting for HTTPRoute shop/web to carry annotation rev=abc: it is def". */
export function waitingForAnnotation(
  id: string,
  marker: { key: string; value: string },
  had: string | undefined
): string {
  const now = had === undefined ? 'it has no such annotation' : `it is ${shown(had)}`
  return `waiting for ${id} to carry annotation ${marker.key}=${shown(marker.value)}: ${now}`
}

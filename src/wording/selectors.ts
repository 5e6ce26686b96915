// Label selectors and the requirements a namespace does not meet, as sentences.
import type { Unmet } from '../rules/selectors.ts'
import { arrayField, isRecord, stringField } from '../model/unknown.ts'

/** "team=web, env in (prod, staging)" */
export function describeSelector(selector: unknown): string {
  const parts: string[] = []
  const matchLabels = isRecord(selector) ? selector.matchLabels : undefined
  if (isRecord(matchLabels)) {
    for (const [k, v] of Object.entries(matchLabels)) parts.push(`${k}=${String(v)}`)
  }
  for (const e of arrayField(selector, 'matchExpressions') ?? []) {
    const values = (arrayField(e, 'values') ?? []).map(String)
    parts.push(
      `${stringField(e, 'key') ?? '?'} ${stringField(e, 'operator') ?? '?'}${values.length > 0 ? ` (${values.join(', ')})` : ''}`
    )
  }
  return parts.length === 0 ? '(empty selector: every namespace)' : parts.join(', ')
}

/** "label team=web is missing", "label env must be one of (prod, staging); it is not set" */
export function describeUnmet(unmet: Unmet): string {
  const { key, actual } = unmet
  switch (unmet.operator) {
    case 'Equals':
      return actual === undefined
        ? `label ${key}=${unmet.value} is missing`
        : `label ${key} is "${actual}", not "${unmet.value}"`
    case 'In':
      return `label ${key} must be one of (${unmet.values.join(', ')}); it is ${actual === undefined ? 'not set' : `"${actual}"`}`
    case 'NotIn':
      return `label ${key} must not be one of (${unmet.values.join(', ')}); it is "${actual ?? ''}"`
    case 'Exists':
      return `label ${key} must be set`
    case 'DoesNotExist':
      return `label ${key} must not be set; it is "${actual ?? ''}"`
  }
}

// Kubernetes label selectors (matchLabels, matchExpressions) against a namespace's labels, with the
// label changes that would make the namespace match.
import { arrayField, isRecord, stringField } from '../model/unknown.ts'

export interface SelectorCheck {
  matches: boolean
  /** the requirements not met, as sentences */
  unmet: string[]
  /** kubectl label arguments that would satisfy the selector: "team=web", "legacy-" */
  labelChanges: string[]
}

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

export function checkSelector(selector: unknown, labels: Record<string, string>): SelectorCheck {
  const unmet: string[] = []
  const labelChanges: string[] = []
  const matchLabels = isRecord(selector) ? selector.matchLabels : undefined
  if (isRecord(matchLabels)) {
    for (const [key, raw] of Object.entries(matchLabels)) {
      const value = String(raw)
      if (labels[key] === value) continue
      unmet.push(
        labels[key] === undefined
          ? `label ${key}=${value} is missing`
          : `label ${key} is "${labels[key]}", not "${value}"`
      )
      labelChanges.push(`${key}=${value}`)
    }
  }
  for (const expression of arrayField(selector, 'matchExpressions') ?? []) {
    const key = stringField(expression, 'key') ?? ''
    const operator = stringField(expression, 'operator') ?? ''
    const values = (arrayField(expression, 'values') ?? []).map(String)
    const actual = labels[key]
    const list = values.join(', ')
    if (operator === 'In' && (actual === undefined || !values.includes(actual))) {
      unmet.push(
        `label ${key} must be one of (${list}); it is ${actual === undefined ? 'not set' : `"${actual}"`}`
      )
      if (values[0] !== undefined) labelChanges.push(`${key}=${values[0]}`)
    } else if (operator === 'NotIn' && actual !== undefined && values.includes(actual)) {
      unmet.push(`label ${key} must not be one of (${list}); it is "${actual}"`)
      labelChanges.push(`${key}-`)
    } else if (operator === 'Exists' && actual === undefined) {
      unmet.push(`label ${key} must be set`)
      labelChanges.push(`${key}=true`)
    } else if (operator === 'DoesNotExist' && actual !== undefined) {
      unmet.push(`label ${key} must not be set; it is "${actual}"`)
      labelChanges.push(`${key}-`)
    }
  }
  return { matches: unmet.length === 0, unmet, labelChanges }
}

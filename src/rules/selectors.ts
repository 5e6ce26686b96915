// Kubernetes label selectors (matchLabels, matchExpressions) against a namespace's labels, with the
// label changes that would make the namespace match. Typed outcomes only: wording/selectors.ts says them.
import { arrayField, isRecord, stringField } from '../model/unknown.ts'

/** One requirement of a selector that the labels do not meet, as written and as found. */
export type Unmet =
  | { operator: 'Equals'; key: string; value: string; actual?: string }
  | { operator: 'In' | 'NotIn'; key: string; values: string[]; actual?: string }
  | { operator: 'Exists' | 'DoesNotExist'; key: string; actual?: string }

export interface SelectorCheck {
  matches: boolean
  /** the requirements not met */
  unmet: Unmet[]
  /** kubectl label arguments that would satisfy the selector: "team=web", "legacy-" */
  labelChanges: string[]
}

export function checkSelector(selector: unknown, labels: Record<string, string>): SelectorCheck {
  const unmet: Unmet[] = []
  const labelChanges: string[] = []
  const found = (key: string): { actual?: string } =>
    labels[key] === undefined ? {} : { actual: labels[key] }
  const matchLabels = isRecord(selector) ? selector.matchLabels : undefined
  if (isRecord(matchLabels)) {
    for (const [key, raw] of Object.entries(matchLabels)) {
      const value = String(raw)
      if (labels[key] === value) continue
      unmet.push({ operator: 'Equals', key, value, ...found(key) })
      labelChanges.push(`${key}=${value}`)
    }
  }
  for (const expression of arrayField(selector, 'matchExpressions') ?? []) {
    const key = stringField(expression, 'key') ?? ''
    const operator = stringField(expression, 'operator') ?? ''
    const values = (arrayField(expression, 'values') ?? []).map(String)
    const actual = labels[key]
    if (operator === 'In' && (actual === undefined || !values.includes(actual))) {
      unmet.push({ operator, key, values, ...found(key) })
      if (values[0] !== undefined) labelChanges.push(`${key}=${values[0]}`)
    } else if (operator === 'NotIn' && actual !== undefined && values.includes(actual)) {
      unmet.push({ operator, key, values, actual })
      labelChanges.push(`${key}-`)
    } else if (operator === 'Exists' && actual === undefined) {
      unmet.push({ operator, key })
      labelChanges.push(`${key}=true`)
    } else if (operator === 'DoesNotExist' && actual !== undefined) {
      unmet.push({ operator, key, actual })
      labelChanges.push(`${key}-`)
    }
  }
  return { matches: unmet.length === 0, unmet, labelChanges }
}

/** Kubernetes sets this label to the namespace's name on every Namespace and keeps it so. */
export const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name'

/**
 * The namespaces a selector admits when it admits them by name and by nothing else (matchLabels or
 * one In expression on kubernetes.io/metadata.name); undefined for any other selector, whose
 * admissions depend on labels a changed selector could not keep.
 */
export function namespacesNamedBy(selector: unknown): string[] | undefined {
  if (!isRecord(selector)) return undefined
  const labels = isRecord(selector.matchLabels) ? Object.entries(selector.matchLabels) : []
  const expressions = arrayField(selector, 'matchExpressions') ?? []
  const extra = Object.keys(selector).filter((k) => k !== 'matchLabels' && k !== 'matchExpressions')
  if (extra.length > 0 || labels.length + expressions.length !== 1) return undefined
  const [label] = labels
  if (label) return label[0] === NAMESPACE_NAME_LABEL ? [String(label[1])] : undefined
  const [expression] = expressions
  if (
    stringField(expression, 'key') !== NAMESPACE_NAME_LABEL ||
    stringField(expression, 'operator') !== 'In'
  )
    return undefined
  return (arrayField(expression, 'values') ?? []).map(String)
}

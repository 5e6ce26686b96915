// The YAML of a problem's or diagnosis' fixes, as the report prints them, one document each; undefined
// when it has none with an object.
import type { Fix } from '../../src/model/types.ts'
import { fixYaml } from '../../src/report/fix-text.ts'

export function fixText(holder: { fixes?: Fix[] } | undefined): string | undefined {
  const texts = (holder?.fixes ?? []).map(fixYaml).filter((t) => t !== '')
  return texts.length === 0 ? undefined : texts.join('---\n')
}

/** The listener named `name` in the first fix that changes a Gateway or ListenerSet. */
export function fixedListener(
  holder: { fixes?: Fix[] } | undefined,
  name: string
): Record<string, unknown> | undefined {
  const fix = holder?.fixes?.find((f) => /^(X?ListenerSet|Gateway)$/.test(f.target.kind))
  const spec = fix?.object?.spec as { listeners?: Record<string, unknown>[] } | undefined
  return spec?.listeners?.find((l) => l.name === name)
}

/** allowedRoutes.namespaces admitting exactly these namespaces by kubernetes.io/metadata.name. */
export const byName = (...values: string[]) => ({
  from: 'Selector',
  selector: {
    matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values }]
  }
})

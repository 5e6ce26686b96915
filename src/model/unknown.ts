// Readers for untrusted input: dumps and manifests are hand-written, so nothing below metadata is
// trusted to have the shape the Gateway API promises.

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function stringField(o: unknown, key: string): string | undefined {
  if (!isRecord(o)) return undefined
  const value = o[key]
  return typeof value === 'string' ? value : undefined
}

export function integerField(o: unknown, key: string): number | undefined {
  if (!isRecord(o)) return undefined
  const value = o[key]
  return Number.isInteger(value) ? (value as number) : undefined
}

export function arrayField(o: unknown, key: string): unknown[] | undefined {
  if (!isRecord(o)) return undefined
  const value = o[key]
  return Array.isArray(value) ? value : undefined
}

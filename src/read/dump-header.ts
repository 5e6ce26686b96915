// The first line of a `route-gate dump`: when and where it was taken and which kinds it lists
// completely. Apart from the dump's writer so that predict reads it without loading a YAML writer.
import { InputError } from '../runtime/errors.ts'

export const DUMP_HEADER_PREFIX = '# route-gate dump '

export interface DumpHeader {
  /** ISO time the lists were read */
  takenAt: string
  /** the API server, without credentials */
  cluster: string
  context: string
  /** lists the account could not read ("services in namespace shop: forbidden (list)") */
  forbidden: string[]
  /** the kinds listed completely: every list of them was allowed */
  complete: string[]
}

/** The header of a dump written by `route-gate dump`, or undefined for any other file. */
export function readDumpHeader(text: string, file: string): DumpHeader | undefined {
  if (!text.startsWith(DUMP_HEADER_PREFIX)) return undefined
  const end = text.indexOf('\n')
  const json = text.slice(DUMP_HEADER_PREFIX.length, end === -1 ? undefined : end)
  let parsed: unknown
  try {
    parsed = JSON.parse(json)
  } catch {
    throw new InputError(`${file} line 1: the route-gate dump header is not valid JSON`)
  }
  const h = parsed as Partial<DumpHeader> | null
  if (
    typeof h?.takenAt !== 'string' ||
    Number.isNaN(Date.parse(h.takenAt)) ||
    typeof h.cluster !== 'string' ||
    typeof h.context !== 'string' ||
    !Array.isArray(h.forbidden) ||
    !h.forbidden.every((f) => typeof f === 'string') ||
    !Array.isArray(h.complete) ||
    !h.complete.every((k) => typeof k === 'string')
  ) {
    throw new InputError(
      `${file} line 1: the route-gate dump header needs takenAt (a time), cluster, context, forbidden and complete`
    )
  }
  return {
    takenAt: h.takenAt,
    cluster: h.cluster,
    context: h.context,
    forbidden: h.forbidden,
    complete: h.complete
  }
}

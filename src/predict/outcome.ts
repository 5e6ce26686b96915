// What predict says of one condition: a definite outcome of a rule, or unknown with why and, where a
// kind the source lacks would decide it, which kind to add.
import { kinds } from '../wording/phrasing.ts'
import type { NeededKind } from './overlay.ts'

/** One predicted condition: the outcome of a rule, or unknown with why. */
export type Outcome =
  | { status: 'True'; reason: string; message: string }
  | { status: 'False'; reason: string; message: string }
  | { status: 'Unknown'; why: string; needs?: NeededKind }

export const ready = (reason: string, message: string): Outcome => ({
  status: 'True',
  reason,
  message
})
export const refused = (reason: string, message: string): Outcome => ({
  status: 'False',
  reason,
  message
})
export const unknown = (
  why: string,
  needs?: NeededKind
): Extract<Outcome, { status: 'Unknown' }> => ({
  status: 'Unknown',
  why,
  ...(needs ? { needs } : {})
})

/** What to add to a dump for a kind it lacks. */
export function addToDump(kind: NeededKind): string {
  return `the cluster source holds no complete list of ${kinds(kind)}: add them to the dump (route-gate dump lists them)`
}

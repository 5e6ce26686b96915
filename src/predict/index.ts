// route-gate predict: what a conformant controller would write for the Routes of a pull request, from
// the cluster's objects overlaid with the manifests, before anything is applied. Pure: no I/O.
import type { ManifestDocument } from '../cluster/types.ts'
import type { Settings } from '../inputs.ts'
import type { PredictReport, PredictionSource } from '../model/types.ts'

export interface PredictInput {
  /** from a dump or a live read-only list (may be empty) */
  cluster: ManifestDocument[]
  /** the pull request's documents, with file and line */
  manifests: ManifestDocument[]
  source: PredictionSource & {
    /** kinds the source provably lists completely, e.g. 'Service' or 'Gateway' */
    complete: string[]
  }
  now: Date
  settings: Pick<Settings, 'strict' | 'conditions'>
  toolVersion: string
}

export function predict(input: PredictInput): PredictReport {
  throw new Error(`predict is not built yet (${input.manifests.length} documents)`)
}

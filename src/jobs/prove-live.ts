// A live run's fixes are proven like a dump's: against the whole cluster, read once as `route-gate
// dump` reads it (get and list only), and only when some problem has a fix to prove.
import type { ClusterClient } from '../cluster/types.ts'
import type { ReportVerdict, RouteResult } from '../model/types.ts'
import { index } from '../predict/overlay.ts'
import { hasFixes, proveFixes } from '../predict/prove.ts'

export async function proveLive<V extends ReportVerdict>(
  results: RouteResult<V>[],
  cluster: ClusterClient,
  required: string[],
  /** bounds the read: the gate's deadline grace */
  within: <T>(work: Promise<T>) => Promise<T> = (work) => work
): Promise<RouteResult<V>[]> {
  if (!hasFixes(results)) return results
  let dump: Awaited<ReturnType<ClusterClient['readDump']>>
  try {
    dump = await within(cluster.readDump())
  } catch {
    // a fix printed as proven must have been predicted: without the read it is not
    return proveFixes(
      results,
      `route-gate could not read the whole cluster (${cluster.description}) to predict it`
    )
  }
  return proveFixes(results, { objects: () => index(dump.objects, dump.complete), required })
}

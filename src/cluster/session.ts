// What every cluster operation shares: the transport, discovery, names for messages and the timing.
import type { Discovery } from './discovery.ts'
import type { ApiRequester } from './request.ts'
import type { RetryTuning } from './retry.ts'

export interface ClusterTuning {
  /** timeout of every non-watch request */
  requestTimeoutMs: number
  /** server-side timeoutSeconds of each watch; a watch silent for twice as long is restarted */
  watchTimeoutSeconds: number
  retry: RetryTuning
}

export const DEFAULT_TUNING: ClusterTuning = {
  requestTimeoutMs: 15_000,
  watchTimeoutSeconds: 60,
  retry: { retries: 8, minTimeoutMs: 500, maxTimeoutMs: 15_000, maxRetryTimeMs: 120_000 }
}

export interface Session {
  api: ApiRequester
  discovery: Discovery
  /** "https://host:port (context name)" */
  description: string
  defaultNamespace: string
  tuning: ClusterTuning
  /** aborted by close(): requests, retries and watches end */
  closing: AbortController
}

// The one retry policy for cluster calls: network errors, timeouts, 429 and 5xx are retried with a
// bounded exponential backoff (honouring Retry-After); everything else fails at once.
import pRetry from 'p-retry'
import { describeFault, type Fault } from './errors.ts'

export interface RetryTuning {
  retries: number
  minTimeoutMs: number
  maxTimeoutMs: number
  /** total time one fault may take before it is reported */
  maxRetryTimeMs: number
  /** stops every retry, backoff included, when the client closes */
  signal?: AbortSignal
}

export interface RetryHooks {
  signal?: AbortSignal
  /** called once, on the first failed attempt of a transient fault */
  onFault?: (fault: Fault) => void
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms)
    function done(): void {
      clearTimeout(timer)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    signal?.addEventListener('abort', done, { once: true })
  })
}

export function withRetry<T>(
  operation: () => Promise<T>,
  tuning: RetryTuning,
  hooks: RetryHooks = {}
): Promise<T> {
  const signals = [hooks.signal, tuning.signal].filter((s) => s !== undefined)
  const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0]
  return pRetry(operation, {
    retries: tuning.retries,
    minTimeout: tuning.minTimeoutMs,
    maxTimeout: tuning.maxTimeoutMs,
    maxRetryTime: tuning.maxRetryTimeMs,
    randomize: true,
    signal,
    onFailedAttempt: async ({ error, attemptNumber, retriesLeft }) => {
      const fault = describeFault(error)
      if (!fault.transient) return
      if (attemptNumber === 1) hooks.onFault?.(fault)
      // p-retry has no per-error delay; the server's Retry-After is waited on top of the backoff.
      if (fault.retryAfterMs !== undefined && retriesLeft > 0) {
        await sleep(Math.min(fault.retryAfterMs, tuning.maxTimeoutMs), signal)
      }
    },
    shouldRetry: ({ error }) => describeFault(error).transient
  })
}

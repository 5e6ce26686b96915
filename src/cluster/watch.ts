// List then watch every (kind, namespace) of a scope until the caller's signal aborts. A watch that
// ends normally is reopened from the last resourceVersion seen (bookmarks included); 410 Gone, in the
// stream or as the HTTP answer, means a relist; transient faults are retried with backoff and reported
// once each; anything else ends the whole watch with a ClusterError. The stream is read here, on the
// requester's transport (request.ts): a watch silent for twice its server-side timeoutSeconds is given
// up (a healthy server sends a bookmark or closes within timeoutSeconds), and a line too long to be an
// event ends the run.
import { ClusterError } from '../runtime/errors.ts'
import type { RouteObject } from '../model/types.ts'
import type { RouteScope, RouteWatchHandlers } from './types.ts'
import {
  describeFault,
  describeOperation,
  parseStatusBody,
  toClusterError,
  WatchStatusError,
  type Fault
} from './errors.ts'
import { withRetry } from './retry.ts'
import {
  asRoute,
  inScope,
  listTarget,
  routeTargets,
  targetCollectionPath,
  targetOperation,
  type RouteTarget
} from './routes.ts'
import type { Session } from './session.ts'

type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED'

interface FollowState {
  /** undefined: (re)list before watching */
  resourceVersion?: string
  verb: 'list' | 'watch'
  /** a list succeeded or a watch was established */
  onProgress: () => void
}

interface WatchEnd {
  /** null on a normal close */
  error: Error | null
  /** events and bookmarks received */
  events: number
  gone: boolean
  aborted: boolean
}

function isChange(phase: string): phase is ChangeType {
  return phase === 'ADDED' || phase === 'MODIFIED' || phase === 'DELETED'
}

function openWatch(
  session: Session,
  target: RouteTarget,
  state: FollowState,
  labelSelector: string | undefined,
  onChange: (type: ChangeType, route: RouteObject) => void,
  signal: AbortSignal
): Promise<WatchEnd> {
  return new Promise((resolve) => {
    const counters = { events: 0, gone: false }
    // ends the request when the watch is done with it, whatever ended the watch
    const stream = new AbortController()
    let settled = false
    const finish = (end: { error: unknown; aborted: boolean }): void => {
      if (settled) return
      settled = true
      signal.removeEventListener('abort', onAbort)
      stream.abort()
      const error =
        end.error === null || end.error instanceof Error
          ? end.error
          : new Error(describeFault(end.error).message)
      resolve({ ...end, error, ...counters })
    }
    // Resolve at once on abort, even while the request still waits for response headers.
    const onAbort = (): void => finish({ error: null, aborted: true })
    if (signal.aborted) {
      onAbort()
      return
    }
    signal.addEventListener('abort', onAbort, { once: true })
    const onEvent = watchEventHandler(target, state, onChange, counters, (error) =>
      finish({ error, aborted: false })
    )
    session.api
      .stream(targetCollectionPath(target), {
        query: {
          watch: true,
          resourceVersion: state.resourceVersion,
          allowWatchBookmarks: true,
          timeoutSeconds: session.tuning.watchTimeoutSeconds,
          labelSelector
        },
        signal: stream.signal,
        idleMs: 2 * session.tuning.watchTimeoutSeconds * 1000,
        onOpen: () => {
          if (!settled) state.onProgress()
        },
        onLine: (line) => {
          const event = watchEventOf(line)
          if (event && !settled) onEvent(event.type, event.object)
        }
      })
      .then(
        () => finish({ error: null, aborted: false }),
        (error: unknown) => finish({ error, aborted: false })
      )
  })
}

/** A line of the stream as a watch event; a line that is not one is skipped, as client-node's Watch does. */
function watchEventOf(line: string): { type: string; object: object } | undefined {
  let event: unknown
  try {
    event = JSON.parse(line)
  } catch {
    return undefined
  }
  const { type, object } = (event ?? {}) as { type?: unknown; object?: unknown }
  return typeof type === 'string' && typeof object === 'object' && object !== null
    ? { type, object }
    : undefined
}

/**
 * What each event does: a change goes to onChange and moves the resourceVersion on; an ERROR ends
 * the watch (410 Gone: relist; anything else: the status it carries).
 */
function watchEventHandler(
  target: RouteTarget,
  state: FollowState,
  onChange: (type: ChangeType, route: RouteObject) => void,
  counters: { events: number; gone: boolean },
  end: (error: Error | null) => void
): (phase: string, object: object) => void {
  return (phase, object) => {
    if (phase === 'ERROR') {
      const status = parseStatusBody(object)
      if (status?.code === 410) counters.gone = true
      end(
        status?.code === 410
          ? null
          : new WatchStatusError(
              status?.code ?? 500,
              status?.reason,
              status?.message ?? 'error event in the watch stream'
            )
      )
      return
    }
    counters.events++
    const item = object as Record<string, unknown> & { metadata?: { resourceVersion?: string } }
    const resourceVersion = item.metadata?.resourceVersion
    if (resourceVersion) state.resourceVersion = resourceVersion
    if (isChange(phase)) onChange(phase, asRoute(item, target))
  }
}

/**
 * One list (when needed) and one watch until it ends. Resolves with the error that interrupted a
 * watch after it had made progress: that fault is reported and followed by an immediate re-watch,
 * outside the backoff (whose time budget started long before).
 */
async function cycle(
  session: Session,
  target: RouteTarget,
  scope: RouteScope,
  handlers: RouteWatchHandlers,
  state: FollowState,
  signal: AbortSignal
): Promise<Error | undefined> {
  if (state.resourceVersion === undefined) {
    state.verb = 'list'
    const list = await listTarget(session, target, scope.labelSelector, signal)
    handlers.onList(
      target.kind,
      target.namespace,
      list.routes.filter((route) => inScope(route, scope))
    )
    state.resourceVersion = list.resourceVersion
    state.onProgress()
  }
  // a handler may have ended the run (everything ready); a watch opened now would outlive it
  if (signal.aborted) return undefined
  state.verb = 'watch'
  const end = await openWatch(
    session,
    target,
    state,
    scope.labelSelector,
    (type, route) => {
      if (inScope(route, scope)) handlers.onChange(type, route)
    },
    signal
  )
  if (end.aborted || signal.aborted) return undefined
  // the stream was cut at an event too long to read: reopening it would cut it again
  if (end.error instanceof ClusterError) throw end.error
  if (end.gone || (end.error !== null && describeFault(end.error).status === 410)) {
    state.resourceVersion = undefined
    return undefined
  }
  if (end.error === null) return undefined
  if (end.events > 0 && describeFault(end.error).transient) return end.error
  throw end.error
}

function retryMessage(session: Session, target: RouteTarget, verb: string, fault: Fault): string {
  const what = describeOperation(targetOperation(target, verb))
  const silent = verb === 'watch' && fault.message === 'no answer in time'
  const problem = silent
    ? `no event or bookmark for ${2 * session.tuning.watchTimeoutSeconds} s`
    : fault.status === undefined
      ? fault.message
      : `HTTP ${fault.status}: ${fault.message}`
  return `${what} on ${session.description}: ${problem}`
}

async function follow(
  session: Session,
  target: RouteTarget,
  scope: RouteScope,
  handlers: RouteWatchHandlers,
  signal: AbortSignal
): Promise<void> {
  let faulted = false
  const state: FollowState = {
    verb: 'list',
    onProgress: () => {
      if (faulted) handlers.onRecovered?.()
      faulted = false
    }
  }
  // once per fault: a stream that breaks and then cannot reconnect is one fault, not two
  const report = (fault: Fault): void => {
    if (faulted) return
    faulted = true
    handlers.onRetry(retryMessage(session, target, state.verb, fault))
  }
  while (!signal.aborted) {
    try {
      const interruption = await withRetry(
        () => cycle(session, target, scope, handlers, state, signal),
        session.tuning.retry,
        { signal, onFault: report }
      )
      if (interruption !== undefined) report(describeFault(interruption))
    } catch (error) {
      if (signal.aborted) return
      throw toClusterError(error, targetOperation(target, state.verb), session.description)
    }
  }
}

export async function watchRoutes(
  session: Session,
  scope: RouteScope,
  handlers: RouteWatchHandlers,
  signal: AbortSignal
): Promise<void> {
  if (signal.aborted) return
  const targets = await routeTargets(session, scope)
  if (targets.length === 0) {
    await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }))
    return
  }
  // One failing target stops the others; the caller's abort stops all.
  const stop = new AbortController()
  const onAbort = (): void => stop.abort()
  signal.addEventListener('abort', onAbort, { once: true })
  try {
    const results = await Promise.allSettled(
      targets.map((target) =>
        follow(session, target, scope, handlers, stop.signal).catch((error: unknown) => {
          stop.abort()
          throw error
        })
      )
    )
    const failure = results.find((result) => result.status === 'rejected')
    if (failure) throw failure.reason
  } finally {
    signal.removeEventListener('abort', onAbort)
    stop.abort()
  }
}

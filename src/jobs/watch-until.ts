// One list+watch session shared by the gate and the monitor: it runs until a handler stops it or its
// time is up. Cluster faults are retried below (src/cluster); one that is still going on when the time
// is up is a cluster error (exit 3), never a verdict.
import type { ClusterClient, RouteScope, RouteWatchHandlers } from '../cluster/types.ts'
import { ClusterError } from '../runtime/errors.ts'

export interface WatchUntilOptions<T> {
  /** epoch ms when the session ends with `atEnd` */
  endsAt: number
  atEnd: T
  /** "the deadline", "the end of the watch": for the message of a fault that outlasts it */
  endName: string
  now: () => number
  log: (line: string) => void
}

type RouteHandlers = Pick<RouteWatchHandlers, 'onList' | 'onChange'>

export function watchUntil<T>(
  cluster: ClusterClient,
  scope: RouteScope,
  options: WatchUntilOptions<T>,
  handlers: (stop: (value: T) => void) => RouteHandlers
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const watch = new AbortController()
    let settled = false
    let fault: string | undefined
    const finish = (result: { value: T } | { error: Error }): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      // aborting every stream takes a few ms: after the verdict is out, not before (events that
      // arrive meanwhile are ignored, settled is set)
      setImmediate(() => watch.abort())
      if ('error' in result) reject(result.error)
      else resolve(result.value)
    }
    const timer = setTimeout(
      () =>
        finish(
          fault === undefined
            ? { value: options.atEnd }
            : { error: new ClusterError(`${fault} (still failing at ${options.endName})`) }
        ),
      Math.max(0, options.endsAt - options.now())
    )
    const routeHandlers = handlers((value) => finish({ value }))
    cluster
      .watchRoutes(
        scope,
        {
          onList: (kind, namespace, routes) => {
            if (!settled) routeHandlers.onList(kind, namespace, routes)
          },
          onChange: (type, route) => {
            if (!settled) routeHandlers.onChange(type, route)
          },
          onRetry(message) {
            fault = message
            options.log(`cluster: ${message}; retrying`)
          },
          onRecovered() {
            if (fault !== undefined) options.log('cluster: connection restored')
            fault = undefined
          }
        },
        watch.signal
      )
      .then(
        () => {
          if (!settled && fault !== undefined) {
            finish({ error: new ClusterError(`${cluster.description}: ${fault}`) })
          }
        },
        (error: unknown) =>
          finish({ error: error instanceof Error ? error : new Error(String(error)) })
      )
  })
}

/** "namespace shop, selector app=web": where a scope looks, for messages. */
export function scopeText(scope: RouteScope): string {
  const where =
    scope.namespaces === 'all' ? 'every namespace' : `namespace ${scope.namespaces.join(', ')}`
  return scope.labelSelector === undefined ? where : `${where}, selector ${scope.labelSelector}`
}

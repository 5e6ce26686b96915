// An index over a list of Routes, built on first use and again when the list has grown: predict's
// rules read the same run-long list of Routes once per predicted Route, and a rebuild per call
// would make them quadratic.
import type { RouteObject } from './types.ts'

/** `build` memoized per list (by identity and length). */
export function perList<T>(
  build: (routes: readonly RouteObject[]) => T
): (routes: readonly RouteObject[]) => T {
  const built = new WeakMap<readonly RouteObject[], { size: number; index: T }>()
  return (routes) => {
    const known = built.get(routes)
    if (known?.size === routes.length) return known.index
    const index = build(routes)
    built.set(routes, { size: routes.length, index })
    return index
  }
}

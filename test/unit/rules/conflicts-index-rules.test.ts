// The conflict rule through its index: the same holders, in the same order, as a walk over every
// Route on the parent, and a bounded number of Routes read per lookup on a parent of thousands.
import { describe, expect, it } from 'vitest'
import { conflictHolders } from '../../../src/rules/conflicts.ts'
import { hostnamesIntersect } from '../../../src/rules/hostnames.ts'
import { readEntries } from '../../../src/model/entries.ts'
import { olderRouteFirst } from '../../../src/model/route-id.ts'
import { routeHostnames, routeParentRefs, routeRules } from '../../../src/model/route-spec.ts'
import type { ParentRef, RouteKind, RouteObject } from '../../../src/model/types.ts'

const G = 'gateway.networking.k8s.io'

// the rule as the walk it was: every Route on the parent, compared one by one
const sameParent = (a: ParentRef, b: ParentRef): boolean =>
  a.group === b.group && a.kind === b.kind && a.namespace === b.namespace && a.name === b.name

function matchTexts(route: RouteObject): Set<string> {
  return new Set(
    routeRules(route).flatMap((rule) =>
      rule.requestMatches.map((m) => `${m.path?.type ?? ''} ${m.path?.value ?? ''}`)
    )
  )
}

function walk(route: RouteObject, ref: ParentRef, routes: RouteObject[]): string[] {
  const l4 = route.kind !== 'HTTPRoute' && route.kind !== 'GRPCRoute'
  const hostnames = routeHostnames(route)
  const matches = matchTexts(route)
  const holders = routes.filter((other) => {
    if (other.kind !== route.kind) return false
    if (
      other.metadata.namespace === route.metadata.namespace &&
      other.metadata.name === route.metadata.name
    )
      return false
    if (!routeParentRefs(other).some((r) => sameParent(r, ref))) return false
    const entries = readEntries(other.status, other.metadata.namespace, other.metadata.generation)
    const rejected = entries.some(
      (e) =>
        sameParent(e.parentRef, ref) &&
        e.conditions.some((c) => c.type === 'Accepted' && c.status === 'False')
    )
    if (rejected) return false
    const theirs = routeHostnames(other)
    const shared =
      hostnames.length === 0 || theirs.length === 0
        ? true
        : hostnames.some((x) => theirs.some((y) => hostnamesIntersect(x, y)))
    if (!shared) return false
    const theirMatches = matchTexts(other)
    return l4 || [...matches].some((m) => theirMatches.has(m))
  })
  return holders.sort(olderRouteFirst).map((r) => `${r.metadata.namespace}/${r.metadata.name}`)
}

function generator(seed: number): () => number {
  let state = seed
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31
    return state / 2 ** 31
  }
}

const HOSTNAMES = [
  'a.example.com',
  'A.Example.com',
  '*.example.com',
  '*.b.example.com',
  'x.b.example.com',
  'example.com',
  '*.com',
  'other.org',
  '*.*.example.com'
]
const PATHS = ['/', '/api', '/shop']
const KINDS: RouteKind[] = ['HTTPRoute', 'GRPCRoute', 'TLSRoute', 'TCPRoute']
const GATEWAYS = ['edge', 'inner']

function randomRoute(next: () => number, i: number): RouteObject {
  const pick = <T>(items: T[]): T => items[Math.floor(next() * items.length)]!
  const kind = next() < 0.6 ? 'HTTPRoute' : pick(KINDS)
  const parents = GATEWAYS.filter(() => next() < 0.6)
  const hostnames = HOSTNAMES.filter(() => next() < 0.15)
  const rules = Array.from({ length: Math.floor(next() * 3) }, () => ({
    matches: Array.from({ length: Math.floor(next() * 3) }, () => ({
      path: { type: 'PathPrefix', value: pick(PATHS) }
    }))
  }))
  return {
    apiVersion: `${G}/v1`,
    kind,
    metadata: {
      namespace: pick(['a', 'b']),
      name: `r${i}`,
      generation: 1,
      creationTimestamp: `2026-01-0${1 + Math.floor(next() * 3)}T00:00:00Z`
    },
    spec: {
      parentRefs: parents.map((name) => ({ name, namespace: 'infra' })),
      ...(hostnames.length > 0 && kind !== 'TCPRoute' ? { hostnames } : {}),
      ...(kind === 'HTTPRoute' || kind === 'GRPCRoute' ? { rules } : {})
    },
    status: {
      parents: parents.map((name) => ({
        parentRef: { name, namespace: 'infra' },
        controllerName: 'example.com/controller',
        conditions: [
          {
            type: 'Accepted',
            status: next() < 0.2 ? 'False' : 'True',
            reason: 'Accepted',
            observedGeneration: 1
          }
        ]
      }))
    }
  }
}

const gatewayRef = (name: string): ParentRef => ({
  group: G,
  kind: 'Gateway',
  namespace: 'infra',
  name
})

describe('conflictHolders through the index', () => {
  it('names the same holders, oldest first, as a walk over every Route, on 40 seeded clusters', () => {
    const next = generator(35)
    let compared = 0
    for (let round = 0; round < 40; round++) {
      const routes = Array.from({ length: 60 }, (_, i) => randomRoute(next, i))
      for (const route of routes) {
        for (const name of GATEWAYS) {
          const ref = gatewayRef(name)
          const expected = walk(route, ref, routes)
          const names = (limit: number): string[] =>
            conflictHolders(route, ref, routes, limit).map(
              (h) => `${h.other.metadata.namespace}/${h.other.metadata.name}`
            )
          expect(names(1000), `round ${round} ${route.metadata.name} on ${name}`).toEqual(expected)
          expect(names(5)).toEqual(expected.slice(0, 5))
          compared += expected.length
        }
      }
    }
    // the seeded clusters do hold conflicts, so the comparison compared something
    expect(compared).toBeGreaterThan(1000)
  })

  it('reads a few Routes per lookup on a Gateway of 4,000 Routes with distinct hostnames', () => {
    const routes = Array.from({ length: 4000 }, (_, i) => {
      const route = randomRoute(generator(i + 1), i)
      route.spec = {
        parentRefs: [{ name: 'edge', namespace: 'infra' }],
        hostnames: [`host-${i}.example.com`],
        rules: [{ matches: [{ path: { type: 'PathPrefix', value: '/' } }] }]
      }
      return route
    })
    let read = 0
    const counted = routes.map(
      (route) =>
        new Proxy(route, {
          get(target, key, receiver) {
            if (key === 'spec') read++
            return Reflect.get(target, key, receiver) as unknown
          }
        })
    )
    for (const route of counted) conflictHolders(route, gatewayRef('edge'), counted)
    // the index reads each Route's spec a few times when built, and each lookup its own Route's
    expect(read).toBeLessThan(4000 * 20)
  })
})

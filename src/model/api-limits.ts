// The list and string limits the Gateway API CRDs (v1.6.3, standard and experimental channels)
// put on the fields predict reads: the API server refuses a longer list, so predict may too, and
// must, before any of its work. A pull request's manifest is untrusted: 200,000 parentRefs (the CRD
// allows 32) made predict's pairing of parents and listeners take gigabytes. Where served versions
// differ (TCPRoute, TLSRoute and UDPRoute rules: 16 in v1alpha2, 1 in v1), the largest counts: the
// check bounds the work, the API server still has the last word.
import { under, type ShapeError } from './shape.ts'
import { EXPERIMENTAL_GROUP, GATEWAY_GROUP, type KubeObject } from './types.ts'
import { apiGroupOf } from './owner.ts'
import { isRecord } from './unknown.ts'

/** items: the most list entries; length: the most characters; each/fields: the limits below. */
export interface Limit {
  items?: number
  length?: number
  each?: Limit
  fields?: Record<string, Limit>
}

const NAME: Limit = { length: 253 }
const SHORT: Limit = { length: 63 }
const CONDITIONS: Limit = { items: 8 }

// a ListenerSet's parentRef names a Gateway and no section: the backendRef's fields
const OBJECT_REF: Limit = { fields: { group: NAME, kind: SHORT, namespace: SHORT, name: NAME } }
const PARENT_REF: Limit = { fields: { ...OBJECT_REF.fields, sectionName: NAME } }

const ROUTE_STATUS: Limit = {
  fields: {
    parents: {
      items: 32,
      each: { fields: { parentRef: PARENT_REF, controllerName: NAME, conditions: CONDITIONS } }
    }
  }
}

function route(hostnames: number | undefined, matches?: Limit): Limit {
  const rule: Limit = {
    fields: {
      name: NAME,
      backendRefs: { items: 16, each: OBJECT_REF },
      ...(matches ? { matches } : {})
    }
  }
  return {
    fields: {
      spec: {
        fields: {
          parentRefs: { items: 32, each: PARENT_REF },
          ...(hostnames === undefined ? {} : { hostnames: { items: hostnames, each: NAME } }),
          rules: { items: 16, each: rule }
        }
      },
      status: ROUTE_STATUS
    }
  }
}

const HEADERS: Limit = { items: 16 }

const LISTENERS: Limit = {
  items: 64,
  each: {
    fields: { name: NAME, hostname: NAME, allowedRoutes: { fields: { kinds: { items: 8 } } } }
  }
}
const LISTENER_STATUS: Limit = {
  items: 64,
  each: { fields: { conditions: CONDITIONS, supportedKinds: { items: 8 } } }
}

const LISTENER_SET: Limit = {
  fields: {
    spec: { fields: { parentRef: OBJECT_REF, listeners: LISTENERS } },
    status: { fields: { conditions: CONDITIONS, listeners: LISTENER_STATUS } }
  }
}

/** By API group and kind; exported so the suite can hold it against the served CRDs. */
export const LIMITS: Record<string, Record<string, Limit>> = {
  [GATEWAY_GROUP]: {
    HTTPRoute: route(16, {
      items: 64,
      each: { fields: { headers: HEADERS, queryParams: HEADERS } }
    }),
    GRPCRoute: route(16, { items: 64, each: { fields: { headers: HEADERS } } }),
    TLSRoute: route(1024),
    TCPRoute: route(undefined),
    UDPRoute: route(undefined),
    Gateway: {
      fields: {
        spec: {
          fields: { gatewayClassName: NAME, addresses: { items: 16 }, listeners: LISTENERS }
        },
        status: {
          fields: { addresses: { items: 16 }, conditions: CONDITIONS, listeners: LISTENER_STATUS }
        }
      }
    },
    ListenerSet: LISTENER_SET,
    GatewayClass: {
      fields: {
        spec: { fields: { controllerName: NAME } },
        status: { fields: { conditions: CONDITIONS, supportedFeatures: { items: 64 } } }
      }
    },
    ReferenceGrant: {
      fields: {
        spec: {
          fields: {
            from: { items: 16, each: { fields: { group: NAME, kind: SHORT, namespace: SHORT } } },
            to: { items: 16, each: { fields: { group: NAME, kind: SHORT, name: NAME } } }
          }
        }
      }
    }
  },
  [EXPERIMENTAL_GROUP]: { XListenerSet: LISTENER_SET }
}

/** More than `max` characters (code points, as the API server counts), counting at most 2·max units. */
function longerThan(text: string, max: number): boolean {
  if (text.length <= max) return false
  if (text.length > 2 * max) return true
  let count = 0
  for (const _ of text) if (++count > max) return true
  return false
}

/**
 * The first value over its limit. A list's length is compared before its items are visited, so
 * the walk touches each value at most once and never more than the limits allow: linear, bounded.
 * A value of another type is left to the shape checks and the rules, which skip it.
 */
function overLimit(value: unknown, limit: Limit): ShapeError | null {
  if (typeof value === 'string') {
    return limit.length !== undefined && longerThan(value, limit.length)
      ? {
          field: '',
          message: `is longer than the ${limit.length} characters the API server accepts`
        }
      : null
  }
  if (Array.isArray(value)) {
    if (limit.items !== undefined && value.length > limit.items) {
      const message = `has ${value.length} items; the API server accepts at most ${limit.items}`
      return { field: '', message }
    }
    if (limit.each === undefined) return null
    for (let index = 0; index < value.length; index++) {
      const error = overLimit(value[index], limit.each)
      if (error) return under(`[${index}]`, error)
    }
    return null
  }
  if (!isRecord(value) || limit.fields === undefined) return null
  for (const key in limit.fields) {
    const error = overLimit(value[key], limit.fields[key]!)
    if (error) return under(key, error)
  }
  return null
}

/** The first field of a Gateway API object over a limit of its CRD; null for any other object. */
export function apiLimitError(object: KubeObject): ShapeError | null {
  const group = apiGroupOf(object)
  // own keys only: a group or kind called "constructor" names no limit
  const kinds = Object.hasOwn(LIMITS, group) ? LIMITS[group]! : {}
  return Object.hasOwn(kinds, object.kind) ? overLimit(object, kinds[object.kind]!) : null
}

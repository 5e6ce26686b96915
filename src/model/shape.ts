import type { KubeObject } from './types.ts'
import { isRecord } from './unknown.ts'

export interface ShapeError {
  field: string
  message: string
}

/**
 * A check's error names the field below the value it was given ('' for the value itself); each
 * container puts its key or index in front on the way out. Paths are built only for an error: the
 * check runs on every Route of a dump or a pull request, and nearly all of them pass.
 */
type Check = (value: unknown) => ShapeError | null

const CONDITION_STATUSES = ['True', 'False', 'Unknown']

function fail(message: string): ShapeError {
  return { field: '', message }
}

/** `segment` ("spec", "[0]") in front of the path below it. */
export function under(segment: string, error: ShapeError): ShapeError {
  const below = error.field
  const field =
    below === '' ? segment : below.startsWith('[') ? segment + below : `${segment}.${below}`
  return { field, message: error.message }
}

function optional(check: Check): Check {
  return (value) => (value === undefined ? null : check(value))
}

const aString: Check = (value) => (typeof value === 'string' ? null : fail('must be a string'))

const aName: Check = (value) =>
  typeof value === 'string' && value !== '' ? null : fail('must be a non-empty string')

function anInteger(min: number, max = Number.MAX_SAFE_INTEGER): Check {
  return (value) =>
    Number.isInteger(value) && (value as number) >= min && (value as number) <= max
      ? null
      : fail(`must be an integer from ${min}${max === Number.MAX_SAFE_INTEGER ? '' : ` to ${max}`}`)
}

function anObject(fields: Record<string, Check>): Check {
  const entries = Object.entries(fields)
  return (value) => {
    if (!isRecord(value)) return fail('must be an object')
    for (const [key, check] of entries) {
      const error = check(value[key])
      if (error) return under(key, error)
    }
    return null
  }
}

function anArray(item: Check): Check {
  return (value) => {
    if (!Array.isArray(value)) return fail('must be a list')
    for (let index = 0; index < value.length; index++) {
      const error = item(value[index])
      if (error) return under(`[${index}]`, error)
    }
    return null
  }
}

const aConditionStatus: Check = (value) =>
  typeof value === 'string' && CONDITION_STATUSES.includes(value)
    ? null
    : fail(`must be True, False or Unknown, not ${JSON.stringify(value)}`)

const parentRef = anObject({
  group: optional(aString),
  kind: optional(aName),
  namespace: optional(aString),
  name: aName,
  sectionName: optional(aString),
  port: optional(anInteger(1, 65535))
})

const condition = anObject({
  type: aName,
  status: aConditionStatus,
  reason: optional(aString),
  message: optional(aString),
  observedGeneration: optional(anInteger(0)),
  lastTransitionTime: optional(aString)
})

const route = anObject({
  metadata: anObject({
    name: aName,
    namespace: optional(aString),
    generation: optional(anInteger(0))
  }),
  spec: optional(anObject({ parentRefs: optional(anArray(parentRef)) })),
  status: optional(
    anObject({
      parents: optional(
        anArray(
          anObject({
            parentRef,
            controllerName: optional(aString),
            conditions: optional(anArray(condition))
          })
        )
      )
    })
  )
})

/**
 * The first field of a Route that does not have the shape the verdict rules read, for dumps and
 * manifests written by hand. The verdict itself never throws: it skips what it cannot read.
 */
export function routeShapeError(o: KubeObject): ShapeError | null {
  return route(o)
}

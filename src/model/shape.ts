import type { KubeObject } from './types.ts'
import { isRecord } from './unknown.ts'

export interface ShapeError {
  field: string
  message: string
}

type Check = (value: unknown, field: string) => ShapeError | null

const CONDITION_STATUSES = ['True', 'False', 'Unknown']

function fail(field: string, message: string): ShapeError {
  return { field, message }
}

function optional(check: Check): Check {
  return (value, field) => (value === undefined ? null : check(value, field))
}

const aString: Check = (value, field) =>
  typeof value === 'string' ? null : fail(field, 'must be a string')

const aName: Check = (value, field) =>
  typeof value === 'string' && value !== '' ? null : fail(field, 'must be a non-empty string')

function anInteger(min: number, max = Number.MAX_SAFE_INTEGER): Check {
  return (value, field) =>
    Number.isInteger(value) && (value as number) >= min && (value as number) <= max
      ? null
      : fail(
          field,
          `must be an integer from ${min}${max === Number.MAX_SAFE_INTEGER ? '' : ` to ${max}`}`
        )
}

function anObject(fields: Record<string, Check>): Check {
  return (value, field) => {
    if (!isRecord(value)) return fail(field, 'must be an object')
    for (const [key, check] of Object.entries(fields)) {
      const error = check(value[key], field === '' ? key : `${field}.${key}`)
      if (error) return error
    }
    return null
  }
}

function anArray(item: Check): Check {
  return (value, field) => {
    if (!Array.isArray(value)) return fail(field, 'must be a list')
    for (const [index, element] of value.entries()) {
      const error = item(element, `${field}[${index}]`)
      if (error) return error
    }
    return null
  }
}

const aConditionStatus: Check = (value, field) =>
  typeof value === 'string' && CONDITION_STATUSES.includes(value)
    ? null
    : fail(field, `must be True, False or Unknown, not ${JSON.stringify(value)}`)

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
  return route(o, '')
}

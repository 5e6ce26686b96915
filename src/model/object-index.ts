// Lookups by name and namespace in the World's object lists, in constant time once a list is
// indexed: a 50,000-Route cluster looks up a Service for every backendRef, and a scan per lookup
// made the snapshot quadratic. Small lists are scanned, where an index would cost more than it saves.
import { NameIndex } from './nearest.ts'
import type { KubeObject } from './types.ts'
import { isRecord, stringField } from './unknown.ts'

/** Below this many objects a scan is as fast as building the index. */
const SCAN_BELOW = 32

interface ObjectIndex {
  /** the list's length when indexed: a list that grew since is indexed again */
  size: number
  /** the objects of each name, whatever their namespace, in list order */
  byName: Map<string, KubeObject[]>
  /** the first object of each namespace and name */
  byKey: Map<string, KubeObject>
  /** the well-formed objects of each namespace, in list order */
  byNamespace: Map<string, KubeObject[]>
  /** the names of each namespace (ALL for every one), indexed for suggestions when first asked */
  names: Map<string, NameIndex>
}

const indexes = new WeakMap<readonly KubeObject[], ObjectIndex>()

function nameOf(object: KubeObject): string | undefined {
  return isRecord(object) ? stringField(object.metadata, 'name') : undefined
}

function namespaceOf(object: KubeObject): string | undefined {
  return isRecord(object) ? stringField(object.metadata, 'namespace') : undefined
}

/** the key of a whole list's names: no namespace name holds a NUL */
const ALL = '\u0000'

const keyOf = (namespace: string, name: string): string => `${namespace}\u0000${name}`

function build(objects: readonly KubeObject[]): ObjectIndex {
  const index: ObjectIndex = {
    size: objects.length,
    byName: new Map(),
    byKey: new Map(),
    byNamespace: new Map(),
    names: new Map()
  }
  for (const object of objects) {
    const name = nameOf(object)
    if (name === undefined) continue
    const named = index.byName.get(name)
    if (named) named.push(object)
    else index.byName.set(name, [object])
    const namespace = namespaceOf(object)
    if (namespace === undefined) continue
    const key = keyOf(namespace, name)
    if (!index.byKey.has(key)) index.byKey.set(key, object)
    const inNamespace = index.byNamespace.get(namespace)
    if (inNamespace) inNamespace.push(object)
    else index.byNamespace.set(namespace, [object])
  }
  return index
}

function indexOf(objects: readonly KubeObject[]): ObjectIndex {
  const known = indexes.get(objects)
  if (known?.size === objects.length) return known
  const index = build(objects)
  indexes.set(objects, index)
  return index
}

/** The first object of that name (and namespace, when given); objects of odd shapes are skipped. */
export function findByName(
  objects: readonly KubeObject[],
  name: string,
  namespace?: string
): KubeObject | undefined {
  if (objects.length < SCAN_BELOW) {
    return objects.find(
      (o) => nameOf(o) === name && (namespace === undefined || namespaceOf(o) === namespace)
    )
  }
  const index = indexOf(objects)
  return namespace === undefined
    ? index.byName.get(name)?.[0]
    : index.byKey.get(keyOf(namespace, name))
}

/** The objects of one namespace, in list order (every object when `namespace` is undefined). */
export function objectsIn(
  objects: readonly KubeObject[],
  namespace: string | undefined
): readonly KubeObject[] {
  if (namespace === undefined) return objects
  if (objects.length < SCAN_BELOW) return objects.filter((o) => o.metadata.namespace === namespace)
  return indexOf(objects).byNamespace.get(namespace) ?? []
}

/** Every object of that name, in any namespace, in list order. */
export function objectsNamed(objects: readonly KubeObject[], name: string): readonly KubeObject[] {
  if (objects.length < SCAN_BELOW) return objects.filter((o) => nameOf(o) === name)
  return indexOf(objects).byName.get(name) ?? []
}

/** The names of one namespace's objects (all, when `namespace` is undefined), for suggestions. */
export function nameIndexIn(
  objects: readonly KubeObject[],
  namespace: string | undefined
): NameIndex {
  const names = (list: readonly KubeObject[]): string[] =>
    list.flatMap((o) => {
      const name = nameOf(o)
      return name === undefined ? [] : [name]
    })
  if (objects.length < SCAN_BELOW) return new NameIndex(names(objectsIn(objects, namespace)))
  const cache = indexOf(objects).names
  const key = namespace ?? ALL
  const known = cache.get(key)
  if (known) return known
  const index = new NameIndex(names(objectsIn(objects, namespace)))
  cache.set(key, index)
  return index
}

// Lookups by name in the World's lists: what a scan of the list would find, in constant time.
import { describe, expect, it } from 'vitest'
import { nearestNames } from '../../../src/model/nearest.ts'
import {
  findByName,
  nameIndexIn,
  objectsIn,
  objectsNamed
} from '../../../src/model/object-index.ts'
import type { KubeObject } from '../../../src/model/types.ts'

const service = (namespace: string, name: string, tag = ''): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { namespace, name, labels: { tag } }
})

/** A list long enough to be indexed, with repeats, odd shapes and cluster-scoped objects. */
function objects(): KubeObject[] {
  const list: KubeObject[] = []
  for (let i = 0; i < 200; i++) list.push(service(`ns-${i % 7}`, `svc-${i % 50}`, String(i)))
  list.push({ kind: 'Namespace', metadata: { name: 'svc-3' } } as KubeObject)
  list.push({ kind: 'Odd', metadata: { name: 42 } } as unknown as KubeObject)
  list.push(null as unknown as KubeObject)
  return list
}

function scan(list: KubeObject[], name: string, namespace?: string): KubeObject | undefined {
  return list.find(
    (o) =>
      typeof o === 'object' &&
      o !== null &&
      o.metadata.name === name &&
      (namespace === undefined || o.metadata.namespace === namespace)
  )
}

describe('findByName', () => {
  it('finds the first object a scan finds, for every name and namespace, and misses what a scan misses', () => {
    const list = objects()
    for (const name of ['svc-0', 'svc-3', 'svc-49', 'svc-50', '42', 'nope']) {
      expect(findByName(list, name)).toBe(scan(list, name))
      for (const namespace of ['ns-0', 'ns-3', 'ns-6', 'ns-7']) {
        expect(findByName(list, name, namespace)).toBe(scan(list, name, namespace))
      }
    }
  })

  it('sees an object added to a list it indexed before', () => {
    const list = objects()
    expect(findByName(list, 'late', 'ns-0')).toBeUndefined()
    const late = service('ns-0', 'late')
    list.push(late)
    expect(findByName(list, 'late', 'ns-0')).toBe(late)
    expect(objectsIn(list, 'ns-0')).toContain(late)
  })

  it('scans a short list as it is', () => {
    const list = [service('a', 'x', '1'), service('b', 'x', '2')]
    expect(findByName(list, 'x')).toBe(list[0])
    expect(findByName(list, 'x', 'b')).toBe(list[1])
  })
})

describe('objectsIn', () => {
  it('holds the objects of one namespace in list order, and every object without a namespace', () => {
    const list = objects()
    const expected = list.filter(
      (o) => typeof o === 'object' && o !== null && o.metadata.namespace === 'ns-2'
    )
    expect(objectsIn(list, 'ns-2')).toEqual(expected)
    expect(objectsIn(list, 'ns-404')).toEqual([])
    expect(objectsIn(list, undefined)).toBe(list)
  })
})

describe('objectsNamed', () => {
  it('finds every object of a name in list order, in every namespace, long list or short', () => {
    for (const list of [objects(), objects().slice(0, 20)]) {
      for (const name of ['svc-0', 'svc-3', 'svc-49', 'nope']) {
        const scanned = list.filter(
          (o) => typeof o === 'object' && o !== null && o.metadata.name === name
        )
        expect(objectsNamed(list, name)).toEqual(scanned)
      }
    }
  })
})

describe('nameIndexIn', () => {
  it('suggests from the names of one namespace, as a scan of them would, and again after the list grows', () => {
    const list = objects()
    const names = (namespace: string): string[] =>
      list.filter((o) => o?.metadata?.namespace === namespace).map((o) => o.metadata.name)
    expect(nameIndexIn(list, 'ns-1').nearest('svc-1')).toEqual(nearestNames('svc-1', names('ns-1')))
    expect(nameIndexIn(list, 'ns-1')).toBe(nameIndexIn(list, 'ns-1'))
    expect(nameIndexIn(list, 'ns-1').nearest('brand-new')).toEqual([])
    list.push(service('ns-1', 'brand-new-svc'))
    expect(nameIndexIn(list, 'ns-1').nearest('svc-1')).toEqual(nearestNames('svc-1', names('ns-1')))
    expect(nameIndexIn(list, 'ns-1').nearest('brand-new')).toEqual(['brand-new-svc'])
  })
})

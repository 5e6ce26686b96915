// Every fix printed for the three controllers' recorded conformance dumps and the shipped example,
// carried out and predicted again (issue 37): a proven fix removes its problem and takes no parent
// from a ready Route; one that detaches does take the parents it names.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parseManifestText } from '../../../src/read/manifests.ts'
import { writableObject } from '../../../src/diagnose/fixes.ts'
import type { KubeObject } from '../../../src/model/types.ts'
import { checkFixes, ROUTE_KINDS } from '../../helpers/fix-check.ts'
import { decode } from '../../conformance/fixture-format.ts'

const CONTROLLERS = ['contour', 'envoy-gateway', 'traefik']

/** The objects of each moment: the conformance recordings' 133 per controller, or the example. */
async function worlds(source: string): Promise<{ name: string; objects: KubeObject[] }[]> {
  if (source === 'example') {
    const url = new URL('../../../examples/cluster-dump.yaml', import.meta.url)
    const docs = await parseManifestText(readFileSync(url, 'utf8'), 'cluster-dump.yaml')
    return [{ name: 'example', objects: docs.map((d) => d.object) }]
  }
  const url = new URL(`../../fixtures/conformance/${source}.yaml`, import.meta.url)
  return decode(readFileSync(url, 'utf8')).moments.map((m) => ({
    name: m.name,
    objects: m.objects
  }))
}

describe.each([...CONTROLLERS, 'example'])('every printed fix of %s, carried out', (source) => {
  it('holds as its proof says', async () => {
    let checked = 0
    for (const { name, objects } of await worlds(source)) {
      const cluster = objects.filter((o) => !ROUTE_KINDS.has(o.kind))
      const routes = objects.filter((o) => ROUTE_KINDS.has(o.kind)).map(writableObject)
      checked += checkFixes(name, cluster, routes).length
    }
    expect(checked, 'fixes printed').toBeGreaterThan(0)
  })
})

// The snapshot figure without a cluster: `check --from-file` on a dump of the shape bench/snapshot.ts
// takes from the test cluster (the same UDPRoutes on the `other` Gateway, as the API server lists
// them), made up here, at 500 and at 5,000 Routes, so the offline bench holds the 5,000-Route budget
// (< 700 ms, < 250 MB) and shows how the cost grows with the dump.
import { randomUUID } from 'node:crypto'
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { OTHER_GATEWAY } from '../test/cluster/fixtures.ts'
import { launchSnapshot } from './context.ts'
import type { Measured } from './process.ts'
import { GROUP, KIND, parentStatus, routeSpec, udpParentRef } from './fixture.ts'
import { median, type Budget } from './report.ts'
import { asDumped, snapshotDump, timeSnapshot, type Item } from './snapshot.ts'

const NAMESPACES = 50
const SIZES = [500, 5000] as const
const RUNS = 3

const created = new Date().toISOString().replace(/\.\d+Z$/, 'Z')

/**
 * What the API server adds to an object it stores (a generation only to one with a spec;
 * managedFields are left out of the dump, as kubectl leaves them out).
 */
function stored(
  metadata: Record<string, unknown>,
  i: number,
  spec = true
): Record<string, unknown> {
  return {
    ...metadata,
    creationTimestamp: created,
    ...(spec ? { generation: 1 } : {}),
    resourceVersion: String(1000 + i),
    uid: randomUUID(),
    managedFields: [{ manager: 'bench', operation: 'Update', time: created }]
  }
}

/** The class, Gateway and namespaces a live dump holds, and `count` ready Routes listed. */
function syntheticCluster(count: number): { world: Item[]; routes: Item[] } {
  const gateway = OTHER_GATEWAY
  const namespaces = Array.from({ length: NAMESPACES }, (_, i) => `bench-offline-${i}`)
  const world: Item[] = [
    {
      apiVersion: `${GROUP}/v1`,
      kind: 'GatewayClass',
      metadata: stored({ name: gateway.gatewayClass }, 0),
      spec: { controllerName: gateway.controllerName }
    },
    {
      apiVersion: `${GROUP}/v1`,
      kind: 'Gateway',
      metadata: stored({ name: gateway.name, namespace: gateway.namespace }, 1),
      spec: { gatewayClassName: gateway.gatewayClass, listeners: gateway.listeners }
    },
    ...[...namespaces, gateway.namespace].map((name, i) => ({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: stored({ name, labels: { 'kubernetes.io/metadata.name': name } }, 2 + i, false)
    }))
  ]
  const parentRef = udpParentRef(gateway)
  const ready = parentStatus(parentRef, gateway.controllerName, 'ready')
  const routes = Array.from({ length: count }, (_, i): Item => {
    const namespace = namespaces[i % namespaces.length]!
    const labels = { 'route-gate-bench': 'offline', set: `s${count}` }
    return {
      apiVersion: `${GROUP}/v1`,
      kind: KIND,
      metadata: stored({ name: `s${count}-${i}`, namespace, labels }, 100 + i),
      spec: routeSpec(parentRef),
      status: { parents: [ready] }
    }
  })
  return {
    world: world.map((item) => asDumped(item, String(item.apiVersion), String(item.kind))),
    routes
  }
}

interface SizeResult {
  routes: number
  wallMs: number
  peakRssMb: number
}

/** Writes the dump of `count` Routes into `dir`; returns its path (for profiling too). */
export async function writeSnapshotDump(dir: string, count: number): Promise<string> {
  const { world, routes } = syntheticCluster(count)
  const failed = parentStatus(udpParentRef(OTHER_GATEWAY), OTHER_GATEWAY.controllerName, 'failed')
  const { text } = snapshotDump(world, routes, () => failed)
  const dump = path.join(dir, `snapshot-${count}.yaml`)
  await writeFile(dump, text)
  return dump
}

async function measureSize(home: string, repo: string, count: number): Promise<SizeResult> {
  const dump = await writeSnapshotDump(home, count)
  const start = (): Measured => launchSnapshot({ repo, home }, dump)
  // the first run fills the compile cache
  await timeSnapshot(start, 1)
  const { wallMs, peakRssMb } = await timeSnapshot(start, RUNS)
  return { routes: count, wallMs: median(wallMs), peakRssMb }
}

const count = (value: number): string => value.toLocaleString('en-US')

/** The snapshot budgets of the live bench (< 700 ms, < 250 MB at 5,000 Routes) and the growth. */
export async function measureSnapshotScale(
  home: string,
  repo: string,
  log: (line: string) => void
): Promise<Budget[]> {
  const results: SizeResult[] = []
  for (const size of SIZES) {
    const result = await measureSize(home, repo, size)
    log(
      `snapshot ${size} Routes: ${Math.round(result.wallMs)} ms, ${Math.round(result.peakRssMb)} MB`
    )
    results.push(result)
  }
  const small = results[0]!
  const large = results.at(-1)!
  const growth = large.wallMs / small.wallMs
  const sizes = large.routes / small.routes
  const what = `snapshot of ${count(large.routes)} Routes (check --from-file, median of ${RUNS} after a warm-up run)`
  return [
    {
      name: `${what}: wall time`,
      measured: `${Math.round(large.wallMs)} ms`,
      limit: '< 700 ms',
      ok: large.wallMs < 700
    },
    {
      name: `${what}: peak RSS`,
      measured: `${Math.round(large.peakRssMb)} MB`,
      limit: '< 250 MB',
      ok: large.peakRssMb < 250
    },
    {
      name: `snapshot growth, ${count(small.routes)} → ${count(large.routes)} Routes (${Math.round(small.wallMs)} → ${Math.round(large.wallMs)} ms)`,
      measured: `${growth.toFixed(1)}×`,
      limit: `≤ ${sizes}× (linear or better)`,
      ok: growth <= sizes
    }
  ]
}

// Figure 3, snapshot: a dump like `kubectl get udproutes,gateways,gatewayclasses,namespaces -A -o yaml`
// (one List, managedFields left out as kubectl does) of the Routes the scale figure made ready, with
// every twentieth Route's status turned into a failure so that diagnosis and the summary's ordering are
// exercised. route-gate judges it offline; kubectl has no offline equivalent, so there is no peer.
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { stringify } from 'yaml'
import { expectExit, launchSnapshot, type BenchContext } from './context.ts'
import { GROUP, KIND } from './fixture.ts'
import type { Measured } from './process.ts'

const FAILING_EVERY = 20

export interface SnapshotResult {
  routes: number
  failing: number
  dumpBytes: number
  wallMs: number[]
  peakRssMb: number
  summaryBytes: number
  /** the first Route the summary names is a failing one */
  failuresFirst: boolean
}

export type Item = Record<string, unknown> & { metadata: Record<string, unknown> }

export function asDumped(item: Item, apiVersion: string, kind: string): Item {
  const metadata = { ...item.metadata }
  delete metadata.managedFields
  return { ...item, apiVersion, kind, metadata }
}

/**
 * The dump text of `world` (already as dumped) and of the Routes as the API server lists them, in
 * kubectl's shape, with every twentieth Route's status a failure: the live bench and the offline one
 * judge the same shape.
 */
export function snapshotDump(
  world: Item[],
  listed: Item[],
  failedStatus: () => Record<string, unknown>
): { text: string; routes: number; failing: Set<string> } {
  const failing = new Set<string>()
  const routes = listed.map((route, i) => {
    const dumped = asDumped(route, `${GROUP}/v1`, KIND)
    if (i % FAILING_EVERY !== 0) return dumped
    failing.add(String(route.metadata.name))
    return { ...dumped, status: { parents: [failedStatus()] } }
  })
  // kubectl writes no anchors; shared objects must not become aliases either
  const text = stringify(
    { apiVersion: 'v1', kind: 'List', metadata: {}, items: [...world, ...routes] },
    { aliasDuplicateObjects: false }
  )
  return { text, routes: routes.length, failing }
}

async function buildDump(
  ctx: BenchContext,
  set: string,
  namespaces: string[]
): Promise<ReturnType<typeof snapshotDump>> {
  const list = async (apiPath: string, apiVersion: string, kind: string): Promise<Item[]> =>
    (await ctx.api.json<{ items: Item[] }>('GET', apiPath)).items.map((item) =>
      asDumped(item, apiVersion, kind)
    )
  const ours = new Set([...namespaces, ctx.env.otherGateway.namespace])
  const world = [
    ...(await list(`/apis/${GROUP}/v1/gatewayclasses`, `${GROUP}/v1`, 'GatewayClass')),
    ...(await list(`/apis/${GROUP}/v1/gateways`, `${GROUP}/v1`, 'Gateway')),
    ...(await list('/api/v1/namespaces', 'v1', 'Namespace')).filter((n) =>
      ours.has(String(n.metadata.name))
    )
  ]
  const routes = (await ctx.fixture.listRoutes(set)) as Item[]
  return snapshotDump(world, routes, () => ctx.fixture.parentStatus('failed'))
}

/** Runs the snapshot `runs` times (exit 1: the dump holds failing Routes); the last run's summary. */
export async function timeSnapshot(
  start: () => Measured,
  runs: number
): Promise<{ wallMs: number[]; peakRssMb: number; summary: string }> {
  const wallMs: number[] = []
  let peakRssMb = 0
  let summary = ''
  for (let i = 0; i < runs; i++) {
    const result = await expectExit(start().finished, 1, 'route-gate snapshot')
    wallMs.push(result.endedAt - result.startedAt)
    peakRssMb = Math.max(peakRssMb, result.peakRssMb)
    summary = result.stdout
  }
  return { wallMs, peakRssMb, summary }
}

export async function measureSnapshot(
  ctx: BenchContext,
  set: string,
  namespaces: string[],
  dir: string,
  runs: number
): Promise<SnapshotResult> {
  const { text, routes, failing } = await buildDump(ctx, set, namespaces)
  const dump = path.join(dir, 'dump.yaml')
  await writeFile(dump, text)
  const { wallMs, peakRssMb, summary } = await timeSnapshot(() => launchSnapshot(ctx, dump), runs)
  const firstNamed = new RegExp(`\\b(${set}-\\d+)\\b`).exec(summary)?.[1]
  return {
    routes,
    failing: failing.size,
    dumpBytes: Buffer.byteLength(text),
    wallMs,
    peakRssMb,
    summaryBytes: Buffer.byteLength(summary),
    failuresFirst: firstNamed !== undefined && failing.has(firstNamed)
  }
}

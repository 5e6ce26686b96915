// Figure 3, snapshot: a dump like `kubectl get udproutes,gateways,gatewayclasses,namespaces -A -o yaml`
// (one List, managedFields left out as kubectl does) of the Routes the scale figure made ready, with
// every twentieth Route's status turned into a failure so that diagnosis and the summary's ordering are
// exercised. route-gate judges it offline; kubectl has no offline equivalent, so there is no peer.
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { stringify } from 'yaml'
import { expectExit, launchSnapshot, type BenchContext } from './context.ts'
import { GROUP } from './fixture.ts'

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

type Item = Record<string, unknown> & { metadata: Record<string, unknown> }

function asDumped(item: Item, apiVersion: string, kind: string): Item {
  const metadata = { ...item.metadata }
  delete metadata.managedFields
  return { ...item, apiVersion, kind, metadata }
}

async function buildDump(
  ctx: BenchContext,
  set: string,
  namespaces: string[]
): Promise<{ items: Item[]; failing: Set<string> }> {
  const failing = new Set<string>()
  const routes = ((await ctx.fixture.listRoutes(set)) as Item[]).map((route, i) => {
    const dumped = asDumped(route, `${GROUP}/v1`, 'UDPRoute')
    if (i % FAILING_EVERY !== 0) return dumped
    failing.add(String(route.metadata.name))
    return { ...dumped, status: { parents: [ctx.fixture.parentStatus('failed')] } }
  })
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
  return { items: [...world, ...routes], failing }
}

export async function measureSnapshot(
  ctx: BenchContext,
  set: string,
  namespaces: string[],
  dir: string,
  runs: number
): Promise<SnapshotResult> {
  const { items, failing } = await buildDump(ctx, set, namespaces)
  const dump = path.join(dir, 'dump.yaml')
  // kubectl writes no anchors; shared objects must not become aliases either
  const text = stringify(
    { apiVersion: 'v1', kind: 'List', metadata: {}, items },
    { aliasDuplicateObjects: false }
  )
  await writeFile(dump, text)
  const wallMs: number[] = []
  let peakRssMb = 0
  let summary = ''
  for (let i = 0; i < runs; i++) {
    // exit 1: the dump holds failing Routes
    const result = await expectExit(launchSnapshot(ctx, dump).finished, 1, 'route-gate snapshot')
    wallMs.push(result.endedAt - result.startedAt)
    peakRssMb = Math.max(peakRssMb, result.peakRssMb)
    summary = result.stdout
  }
  const firstNamed = new RegExp(`\\b(${set}-\\d+)\\b`).exec(summary)?.[1]
  return {
    routes: items.filter((i) => i.kind === 'UDPRoute').length,
    failing: failing.size,
    dumpBytes: Buffer.byteLength(text),
    wallMs,
    peakRssMb,
    summaryBytes: Buffer.byteLength(summary),
    failuresFirst: firstNamed !== undefined && failing.has(firstNamed)
  }
}

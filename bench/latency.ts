// Figure 1, reaction latency: one Route without status, the tool started and given time to list and
// watch, then one status write; the latency is from just before the write is sent to the tool's exit.
// Trials alternate which tool goes first so that drift in the machine's load hits both alike. Each
// trial's peak RSS is kept too: the memory of a one-Route gate against one `kubectl wait`. A bare
// Node watcher (node-floor.mjs) runs each trial too: the floor Node itself sets for both figures.
import { performance } from 'node:perf_hooks'
import {
  expectExit,
  launchNodeFloor,
  launchTool,
  stillRunningAfter,
  type BenchContext,
  type Tool
} from './context.ts'
import type { Measured } from './process.ts'
import type { RouteRef } from './fixture.ts'

/** long enough for either tool to start, list and open its watch on a busy 2-core machine */
const SETTLE_MS = 1500

export type LatencySamples = Record<Tool, number[]>

export interface FloorSamples {
  latency: number[]
  peakRssMb: number[]
}

export interface LatencyResult {
  latency: LatencySamples
  peakRssMb: LatencySamples
  floor: FloorSamples
}

async function trial(
  ctx: BenchContext,
  what: string,
  start: () => Measured,
  route: RouteRef
): Promise<{ ms: number; rssMb: number }> {
  await ctx.fixture.writeStatus(route, 'none')
  const measured = start()
  await stillRunningAfter(measured, SETTLE_MS, what)
  const written = performance.now()
  await ctx.fixture.writeStatus(route, 'ready')
  const result = await expectExit(measured.finished, 0, what)
  return { ms: result.endedAt - written, rssMb: result.peakRssMb }
}

export async function measureLatency(
  ctx: BenchContext,
  route: RouteRef,
  trials: number
): Promise<LatencyResult> {
  const samples: LatencySamples = { 'route-gate': [], 'kubectl wait': [] }
  const peakRssMb: LatencySamples = { 'route-gate': [], 'kubectl wait': [] }
  const floor: FloorSamples = { latency: [], peakRssMb: [] }
  for (let i = 0; i < trials; i++) {
    const order: Tool[] =
      i % 2 === 0 ? ['route-gate', 'kubectl wait'] : ['kubectl wait', 'route-gate']
    for (const tool of order) {
      const start = (): Measured => launchTool(ctx, tool, route, 'direct')
      const { ms, rssMb } = await trial(ctx, tool, start, route)
      samples[tool].push(ms)
      peakRssMb[tool].push(rssMb)
    }
    const bare = await trial(ctx, 'node-floor', () => launchNodeFloor(ctx, route), route)
    floor.latency.push(bare.ms)
    floor.peakRssMb.push(bare.rssMb)
    ctx.log(
      `latency trial ${i + 1}/${trials}: route-gate ${samples['route-gate'].at(-1)!.toFixed(0)} ms, kubectl wait ${samples['kubectl wait'].at(-1)!.toFixed(0)} ms, bare Node watcher ${bare.ms.toFixed(0)} ms`
    )
  }
  return { latency: samples, peakRssMb, floor }
}

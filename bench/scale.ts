// Figure 2, scale: N Routes without status across the namespaces, the tool started through the
// counting proxy and given time to open every watch, then every Route's status written (bounded
// concurrency). Measured: from the answer to the last write to the tool's exit (route-gate: the whole
// verdict and report), API requests (the proxy's exact count and the API server's counter delta), and
// peak RSS and CPU time. The peer is what a CI script does without route-gate: one `kubectl wait`
// per Route, all started together.
import os from 'node:os'
import { setTimeout as sleep } from 'node:timers/promises'
import {
  expectExit,
  launchGate,
  launchKubectlWait,
  type BenchContext,
  type Tool
} from './context.ts'
import type { RouteRef } from './fixture.ts'
import { measuredRequests, readCounters, requestsBetween, type Series } from './metrics.ts'
import type { Finished, Measured } from './process.ts'

export interface ScaleResult {
  tool: Tool
  routes: number
  namespaces: number
  /** from the answer to the last status write to the (last) tool's exit */
  verdictMs: number
  /** how long the bench took to write every status */
  writeMs: number
  /** requests the tool sent, counted by the proxy */
  requests: number
  /** the same window on the API server's counters, minus the bench's own status writes */
  apiserverRequests: number
  apiserverSeries: Series[]
  /** route-gate: its peak; kubectl: the sum of every process's peak (they all run at once) */
  peakRssMb: number
  /** kubectl: the largest single process */
  maxProcessRssMb: number
  cpuMs: number
  /** the 1-minute load average when the measurement began and ended */
  load: { before: number; after: number }
}

// The API server counts a watch when it ends; give the ends of the closed watches time to land.
const COUNTER_SETTLE_MS = 1000
const READY_TIMEOUT_MS = 120_000

async function untilWatching(
  ctx: BenchContext,
  launched: Measured[],
  watches: number,
  tool: Tool
): Promise<void> {
  const early = Promise.race(launched.map((m) => m.finished)).then((result) => {
    throw new Error(
      `${tool} ended before the status writes (exit ${result.code}):\n${result.stderr}`
    )
  })
  await Promise.race([
    ctx.proxy.until((seen) => seen.filter((r) => r.watch).length >= watches, READY_TIMEOUT_MS),
    early
  ])
}

export async function measureScale(
  ctx: BenchContext,
  tool: Tool,
  routes: RouteRef[]
): Promise<ScaleResult> {
  const namespaces = new Set(routes.map((r) => r.namespace)).size
  const loadBefore = os.loadavg()[0]!
  ctx.proxy.reset()
  const before = await readCounters(ctx.api)
  const launched =
    tool === 'route-gate'
      ? [launchGate(ctx, routes, 'proxy')]
      : routes.map((route) => launchKubectlWait(ctx, route, 'proxy'))
  // route-gate watches each namespace once; each kubectl wait watches its one Route
  await untilWatching(ctx, launched, tool === 'route-gate' ? namespaces : routes.length, tool)
  ctx.log(`${tool}: ${routes.length} Routes, every watch open`)
  const writeStarted = performance.now()
  const lastWrite = await ctx.fixture.writeAll(routes, 'ready')
  const results: Finished[] = await Promise.all(
    launched.map((m) => expectExit(m.finished, 0, tool))
  )
  const requests = ctx.proxy.seen.length
  const load = { before: loadBefore, after: os.loadavg()[0]! }
  await sleep(COUNTER_SETTLE_MS)
  const series = requestsBetween(before, await readCounters(ctx.api))
  if (tool === 'route-gate') assertReady(results[0]!, routes.length)
  return {
    tool,
    routes: routes.length,
    namespaces,
    verdictMs: Math.max(...results.map((r) => r.endedAt)) - lastWrite,
    writeMs: lastWrite - writeStarted,
    requests,
    apiserverRequests: measuredRequests(series),
    apiserverSeries: series,
    peakRssMb: results.reduce((sum, r) => sum + r.peakRssMb, 0),
    maxProcessRssMb: Math.max(...results.map((r) => r.peakRssMb)),
    cpuMs: results.reduce((sum, r) => sum + r.cpuMs, 0),
    load
  }
}

function assertReady(result: Finished, routes: number): void {
  const report = JSON.parse(result.stdout) as { verdict: string; counts: { ready: number } }
  if (report.verdict !== 'ready' || report.counts.ready !== routes) {
    throw new Error(
      `route-gate: expected ${routes} ready Routes, got ${result.stdout.slice(0, 300)}`
    )
  }
}

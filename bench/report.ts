// The results of one bench run: the budgets checked against them (each a ratio to kubectl measured in
// the same run where kubectl does the same thing), and Markdown tables (readable in a terminal, pasted
// as is into the README) with route-gate and its peer side by side.
import type { Tool } from './context.ts'
import type { FloorSamples, LatencySamples } from './latency.ts'
import type { ScaleResult } from './scale.ts'
import type { SnapshotResult } from './snapshot.ts'
import {
  OFFLINE_COMMANDS,
  type CacheState,
  type CommandStartupResult,
  type OfflineCommand,
  type StartupResult
} from './startup.ts'

export interface Machine {
  cpu: string
  cores: number
  memoryGb: number
  kernel: string
  node: string
  kubeApiserver: string
  kubectl: string
  /** 1-minute load average before and after the run */
  loadBefore: number
  loadAfter: number
}

export interface Results {
  mode: 'full' | 'smoke'
  startedAt: string
  durationS: number
  machine: Machine
  latency: LatencySamples
  /** peak RSS of each latency trial: a one-Route gate and one kubectl wait */
  latencyRssMb: LatencySamples
  /** the same trials of a bare Node watcher: what Node itself costs */
  latencyFloor: FloorSamples
  startup: StartupResult
  commands: CommandStartupResult
  scale: ScaleResult[]
  snapshot: SnapshotResult
  budgets: Budget[]
}

export interface Budget {
  name: string
  measured: string
  /** what kubectl measured for the same figure in the same run, when it has one */
  peer?: string
  /** route-gate / kubectl, when the budget is a ratio */
  ratio?: number
  limit: string
  ok: boolean
}

/** Nearest-rank percentile. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN
}

export const median = (values: number[]): number => percentile(values, 50)

const MIB = 1024 * 1024
const ms = (value: number): string => `${Math.round(value)} ms`
const mb = (value: number): string => `${Math.round(value)} MB`
const count = (value: number): string => value.toLocaleString('en-US')

// list + watch per namespace, a watch reopened now and then, discovery and the final world reads
const requestAllowance = (namespaces: number): number => 3 * namespaces + 30

/**
 * Each offline command (--version, --help, the example snapshot) against `kubectl version --client`,
 * as a ratio of medians: ≤ 1.0× for the first two, ≤ 1.5× for the snapshot and one predicted Route.
 */
export function offlineBudgets(commands: CommandStartupResult): Budget[] {
  const kubectlVersion = median(commands.kubectlVersionMs)
  const budgets: Budget[] = []
  for (const name of Object.keys(OFFLINE_COMMANDS) as OfflineCommand[]) {
    for (const cache of ['warm', 'cold'] as CacheState[]) {
      const samples = commands.routeGateMs[name][cache]
      const limit = name.startsWith('snapshot') || name.startsWith('predict') ? 1.5 : 1.0
      const value = median(samples) / kubectlVersion
      budgets.push({
        name: `${name}, ${cache} compile cache (wall time, median of ${samples.length})`,
        measured: ms(median(samples)),
        peer: `${ms(kubectlVersion)} (kubectl version --client)`,
        ratio: value,
        limit: `≤ ${limit.toFixed(2)}×`,
        ok: value <= limit
      })
    }
  }
  return budgets
}

/** The budgets as a Markdown table. */
export function renderBudgets(budgets: Budget[]): string {
  return [
    row(['Budget', 'route-gate', 'kubectl', 'Ratio', 'Limit', 'Held']),
    row(['---', '---:', '---:', '---:', '---', '---']),
    ...budgets.map((b) =>
      row([
        b.name,
        b.measured,
        b.peer ?? '—',
        b.ratio === undefined ? '—' : `${b.ratio.toFixed(2)}×`,
        b.limit,
        b.ok ? 'yes' : '**no**'
      ])
    )
  ].join('\n')
}

export function checkBudgets(r: Omit<Results, 'budgets'>): Budget[] {
  const budgets: Budget[] = []
  const ratio = (
    name: string,
    gate: number,
    peer: number,
    limit: number,
    unit: (v: number) => string,
    peerName: string
  ): void => {
    const value = gate / peer
    budgets.push({
      name,
      measured: unit(gate),
      peer: `${unit(peer)} (${peerName})`,
      ratio: value,
      limit: `≤ ${limit.toFixed(2)}×`,
      ok: value <= limit
    })
  }
  budgets.push(...offlineBudgets(r.commands))
  // a Go binary reacts faster than Node can exit (issue 24): the goal is Node's own floor, measured
  // in the same trials
  for (const p of [50, 90]) {
    ratio(
      `reaction latency, ${p === 50 ? 'median' : 'p90'} (status write → exit, ${r.latency['route-gate'].length} trials)`,
      percentile(r.latency['route-gate'], p),
      percentile(r.latencyFloor.latency, p),
      1.25,
      ms,
      'a bare Node watcher'
    )
  }
  ratio(
    'peak RSS of a one-Route gate (median of the latency trials)',
    median(r.latencyRssMb['route-gate']),
    median(r.latencyRssMb['kubectl wait']),
    // within half again of one kubectl wait
    1.5,
    mb,
    'kubectl wait'
  )
  const gates = r.scale.filter((s) => s.tool === 'route-gate')
  const requests = gates.map((s) => s.requests)
  budgets.push({
    name: 'API requests independent of the Route count',
    measured: gates.map((s) => `${count(s.routes)}: ${s.requests}`).join(', '),
    limit: `≤ 3 per namespace + 30 (${gates[0] ? requestAllowance(gates[0].namespaces) : '—'})`,
    ok:
      gates.every((s) => s.requests <= requestAllowance(s.namespaces)) &&
      Math.max(...requests) - Math.min(...requests) <= 10
  })
  const largest = gates.at(-1)
  if (largest) {
    budgets.push({
      name: `${count(largest.routes)} Routes: last status write → exit (verdict and whole report out)`,
      measured: `${ms(largest.verdictMs)} at load ${largest.load.before.toFixed(2)} → ${largest.load.after.toFixed(2)}`,
      limit: '< 250 ms',
      ok: largest.verdictMs < 250
    })
    budgets.push({
      name: `${count(largest.routes)} Routes: peak RSS`,
      measured: mb(largest.peakRssMb),
      limit: '< 300 MB',
      ok: largest.peakRssMb < 300
    })
  }
  const snapshotMedian = median(r.snapshot.wallMs)
  budgets.push({
    name: `snapshot of ${count(r.snapshot.routes)} Routes: wall time`,
    measured: ms(snapshotMedian),
    limit: '< 700 ms',
    ok: snapshotMedian < 700
  })
  budgets.push({
    name: `snapshot of ${count(r.snapshot.routes)} Routes: peak RSS`,
    measured: mb(r.snapshot.peakRssMb),
    limit: '< 250 MB',
    ok: r.snapshot.peakRssMb < 250
  })
  budgets.push({
    name: `job summary of ${count(r.snapshot.routes)} Routes`,
    measured: `${count(r.snapshot.summaryBytes)} bytes, failures first: ${r.snapshot.failuresFirst ? 'yes' : 'no'}`,
    limit: '< 1 MiB, failures first',
    ok: r.snapshot.summaryBytes < MIB && r.snapshot.failuresFirst
  })
  const startup = median(r.startup.firstRequestMs['route-gate'])
  budgets.push({
    name: 'start-up to the first API request',
    measured: ms(startup),
    limit: '< 500 ms',
    ok: startup < 500
  })
  const growth = growthOf(r.scale)
  if (growth) {
    budgets.push({
      name: `growth ${count(growth.from)} → ${count(growth.to)} Routes (×${growth.factor})`,
      measured: `CPU ×${growth.cpu.toFixed(2)}, RSS above an idle gate ×${growth.rss.toFixed(2)}`,
      limit: `≤ ×${growth.factor} (linear or better), +10% for GC timing`,
      ok: growth.cpu <= growth.factor * 1.1 && growth.rss <= growth.factor * 1.1
    })
  }
  return budgets
}

// A gate watching 100 Routes is close to an idle one; memory growth is measured above it.
function growthOf(
  scale: ScaleResult[]
): { from: number; to: number; factor: number; cpu: number; rss: number } | undefined {
  const gates = scale.filter((s) => s.tool === 'route-gate')
  const [base, from, to] = [gates[0], gates.at(-2), gates.at(-1)]
  if (gates.length < 3 || !base || !from || !to) return undefined
  return {
    from: from.routes,
    to: to.routes,
    factor: to.routes / from.routes,
    cpu: to.cpuMs / from.cpuMs,
    rss: (to.peakRssMb - base.peakRssMb) / Math.max(1, from.peakRssMb - base.peakRssMb)
  }
}

function row(cells: string[]): string {
  return `| ${cells.join(' | ')} |`
}

export function renderTable(r: Results): string {
  const lines = [row(['Figure', 'route-gate', 'kubectl wait']), row(['---', '---:', '---:'])]
  const pair = (name: string, gate: string, peer: string): void => {
    lines.push(row([name, gate, peer]))
  }
  const latency = (p: number, tool: Tool): string => ms(percentile(r.latency[tool], p))
  const n = r.latency['route-gate'].length
  pair(
    `Reaction latency, median (${n} trials)`,
    latency(50, 'route-gate'),
    latency(50, 'kubectl wait')
  )
  pair(
    `Reaction latency, p90 (${n} trials)`,
    latency(90, 'route-gate'),
    latency(90, 'kubectl wait')
  )
  pair(
    `One Route: peak RSS, median of ${n} trials`,
    mb(median(r.latencyRssMb['route-gate'])),
    mb(median(r.latencyRssMb['kubectl wait']))
  )
  const floor = r.latencyFloor
  pair(
    `Node's floor, a bare watcher (bench/node-floor.mjs): reaction median / p90, peak RSS`,
    `${ms(median(floor.latency))} / ${ms(percentile(floor.latency, 90))}, ${mb(median(floor.peakRssMb))}`,
    '—'
  )
  for (const gate of r.scale.filter((s) => s.tool === 'route-gate')) {
    const peer = r.scale.find((s) => s.tool === 'kubectl wait' && s.routes === gate.routes)
    const label = `${count(gate.routes)} Routes / ${gate.namespaces} ns (load ${gate.load.before.toFixed(2)} → ${gate.load.after.toFixed(2)})`
    pair(
      `${label}: last status write → exit`,
      ms(gate.verdictMs),
      peer ? `${ms(peer.verdictMs)} (${peer.routes} processes)` : '—'
    )
    pair(
      `${label}: API requests (proxy / API server counter)`,
      `${count(gate.requests)} / ${count(gate.apiserverRequests)}`,
      peer ? `${count(peer.requests)} / ${count(peer.apiserverRequests)}` : '—'
    )
    pair(
      `${label}: peak RSS`,
      mb(gate.peakRssMb),
      peer ? `${mb(peer.peakRssMb)} total, ${mb(peer.maxProcessRssMb)} each` : '—'
    )
    pair(`${label}: CPU time`, ms(gate.cpuMs), peer ? ms(peer.cpuMs) : '—')
    pair(`${label}: bench writing all statuses`, ms(gate.writeMs), peer ? ms(peer.writeMs) : '—')
  }
  const s = r.snapshot
  pair(
    `Snapshot, ${count(s.routes)} Routes (${count(s.failing)} failing), ${(s.dumpBytes / MIB).toFixed(1)} MiB dump: wall time, median of ${s.wallMs.length}`,
    ms(median(s.wallMs)),
    'no offline mode'
  )
  pair(`Snapshot: peak RSS`, mb(s.peakRssMb), '—')
  pair(
    `Snapshot: job summary (Markdown)`,
    `${count(s.summaryBytes)} bytes, failures first: ${s.failuresFirst ? 'yes' : 'no'}`,
    '—'
  )
  pair(
    `Start-up to the first API request, median of ${r.startup.firstRequestMs['route-gate'].length}`,
    ms(median(r.startup.firstRequestMs['route-gate'])),
    ms(median(r.startup.firstRequestMs['kubectl wait']))
  )
  pair(
    'Size on disk (dist/ ; kubectl binary)',
    `${(r.startup.sizeBytes['route-gate'] / MIB).toFixed(1)} MiB`,
    `${(r.startup.sizeBytes['kubectl wait'] / MIB).toFixed(1)} MiB`
  )
  const budgets = renderBudgets(r.budgets)
  const m = r.machine
  const machine = `Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGb} GB RAM, Linux ${m.kernel}, Node ${m.node}; kube-apiserver ${m.kubeApiserver}, kubectl ${m.kubectl}; load average ${m.loadBefore.toFixed(2)} before, ${m.loadAfter.toFixed(2)} after; ${r.mode} run of ${Math.round(r.durationS)} s on ${r.startedAt}.`
  return [lines.join('\n'), '', budgets, '', machine].join('\n')
}

// `npm run bench` is not part of npm test; this small run of it (100 Routes, a few trials) is, so the
// benchmark cannot rot: every figure runs for route-gate and kubectl wait against the real control
// plane, and the budgets that do not depend on the machine's speed are held.
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import type { Results } from '../../bench/report.ts'
import { REPO } from '../helpers/action.ts'

const run = promisify(execFile)

describe('npm run bench -- --smoke', () => {
  it('measures every figure for route-gate and kubectl wait on 100 Routes', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'route-gate-bench-smoke-'))
    const out = path.join(dir, 'results.json')
    const { stdout } = await run(
      process.execPath,
      ['--experimental-strip-types', 'bench/run.ts', '--smoke', '--out', out],
      { cwd: REPO, env: process.env, maxBuffer: 16 * 1024 * 1024 }
    )
    const results = JSON.parse(await readFile(out, 'utf8')) as Results
    await rm(dir, { recursive: true, force: true })

    expect(stdout).toContain('| Figure | route-gate | kubectl wait |')
    expect(results.mode).toBe('smoke')
    for (const tool of ['route-gate', 'kubectl wait'] as const) {
      expect(results.latency[tool]).toHaveLength(3)
      expect(Math.min(...results.latency[tool])).toBeGreaterThan(0)
      expect(results.startup.firstRequestMs[tool].every((ms) => ms > 0)).toBe(true)
      expect(results.latencyRssMb[tool]).toHaveLength(3)
      expect(Math.min(...results.latencyRssMb[tool])).toBeGreaterThan(5)
    }

    // the offline commands against kubectl version --client, cold and warm, each a ratio with a limit
    expect(results.commands.kubectlVersionMs).toHaveLength(1)
    for (const name of ['--version', '--help', 'snapshot of examples/cluster-dump.yaml'] as const) {
      for (const cache of ['cold', 'warm'] as const) {
        expect(results.commands.routeGateMs[name][cache]).toHaveLength(1)
        const budget = results.budgets.find((b) => b.name.startsWith(`${name}, ${cache} compile`))
        expect(budget?.ratio, `${name} ${cache}`).toBeGreaterThan(0)
        expect(budget?.limit).toBe(name.startsWith('snapshot') ? '≤ 1.50×' : '≤ 1.00×')
      }
    }
    for (const name of [
      'every escaper on 1 MB of hostile text',
      'the Action (predict) on a Route named with 1 MB',
      'reaction latency, median',
      'reaction latency, p90',
      'peak RSS of a one-Route'
    ]) {
      expect(results.budgets.find((b) => b.name.startsWith(name))?.ratio, name).toBeGreaterThan(0)
    }
    expect(stdout).toContain('| Budget | route-gate | kubectl | Ratio | Limit | Held |')

    const gate = results.scale.find((s) => s.tool === 'route-gate')
    const peer = results.scale.find((s) => s.tool === 'kubectl wait')
    expect(gate).toMatchObject({ routes: 100, namespaces: 50 })
    expect(peer).toMatchObject({ routes: 100, namespaces: 50 })
    // one list and one watch per namespace, whatever the number of Routes; kubectl: per Route
    expect(gate!.requests).toBeGreaterThanOrEqual(2 * 50)
    expect(gate!.requests).toBeLessThanOrEqual(3 * 50 + 30)
    expect(peer!.requests).toBeGreaterThanOrEqual(2 * 100)
    expect(gate!.peakRssMb).toBeGreaterThan(10)
    expect(peer!.peakRssMb).toBeGreaterThan(gate!.peakRssMb)

    expect(results.snapshot).toMatchObject({ routes: 100, failing: 5, failuresFirst: true })
    expect(results.snapshot.summaryBytes).toBeLessThan(1024 * 1024)
    expect(results.budgets.find((b) => b.name.startsWith('API requests'))?.ok).toBe(true)
    expect(results.budgets.find((b) => b.name.startsWith('job summary'))?.ok).toBe(true)
  }, 300_000)
})

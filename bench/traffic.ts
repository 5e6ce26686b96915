// `node --experimental-strip-types bench/traffic.ts [--trials N]`: how much time verify-traffic adds
// for one Route, on the real test control plane (npm run cluster:up) with Traefik as the data plane
// and the backend in a network namespace. Each trial applies a fresh Route (its own hostname) with
// the CLI and times the run to its exit, with and without --verify-traffic, alternating; then both
// again on a Route that is already ready and serving (the cost of the requests alone).
import { spawn } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { ENV_FILE_VARIABLE, envFilePath, REPO_ROOT } from '../test/cluster/env.ts'
import { clusterEnv, controller, testHostname, testNamespace } from '../test/helpers/cluster.ts'
import { httpRouteYaml } from '../test/helpers/manifest-files.ts'
import { endpointSliceYaml, serviceYaml, startNetnsBackend } from '../test/helpers/netns.ts'

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js')

function routeYaml(name: string, hostname: string): string {
  const gateway = controller('traefik').gateway
  return httpRouteYaml({ name, gateway, sectionName: 'http', hostname, backend: 'web' })
}

function timedRun(args: string[]): Promise<number> {
  const started = performance.now()
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH, KUBECONFIG: clusterEnv().kubeconfig },
      stdio: ['ignore', 'ignore', 'pipe']
    })
    let stderr = ''
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('close', (code) => {
      if (code === 0) resolve(performance.now() - started)
      else reject(new Error(`route-gate ${args.join(' ')} exited ${code}: ${stderr}`))
    })
  })
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = Math.floor(s.length / 2)
  return s.length % 2 === 1 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { trials: { type: 'string', default: '5' } } })
  const trials = Number(values.trials)
  const clusterDir = path.dirname(process.env[ENV_FILE_VARIABLE] ?? envFilePath())
  const backend = await startNetnsBackend(clusterDir)
  const dir = await mkdtemp(path.join(os.tmpdir(), 'route-gate-bench-traffic-'))
  const fresh = { plain: [] as number[], verified: [] as number[] }
  const ready = { plain: [] as number[], verified: [] as number[] }
  try {
    const ns = await testNamespace('bench-traffic')
    for (let i = 0; i < trials; i++) {
      for (const verify of [false, true]) {
        const name = `r${i}-${verify ? 'v' : 'p'}`
        const file = path.join(dir, `${name}.yaml`)
        await writeFile(
          file,
          `${serviceYaml('web')}---\n${endpointSliceYaml('web', backend)}---\n${routeYaml(name, testHostname(ns, name))}`
        )
        const args = ['apply', '--manifests', file, '--namespace', ns, '--timeout', '60s']
        const ms = await timedRun(verify ? [...args, '--verify-traffic'] : args)
        ;(verify ? fresh.verified : fresh.plain).push(ms)
      }
    }
    for (let i = 0; i < trials; i++) {
      for (const verify of [false, true]) {
        const args = ['check', '--routes', 'httproute/r0-v', '--namespace', ns, '--timeout', '60s']
        const ms = await timedRun(verify ? [...args, '--verify-traffic'] : args)
        ;(verify ? ready.verified : ready.plain).push(ms)
      }
    }
  } finally {
    await backend.stop()
    await rm(dir, { recursive: true, force: true })
  }
  const row = (label: string, r: { plain: number[]; verified: number[] }): string =>
    `${label.padEnd(34)} ${median(r.plain).toFixed(0).padStart(8)} ms ${median(r.verified).toFixed(0).padStart(8)} ms ${(median(r.verified) - median(r.plain)).toFixed(0).padStart(8)} ms`
  process.stdout.write(
    [
      `verify-traffic, one HTTPRoute through Traefik, median of ${trials} runs (wall time of the CLI)`,
      `${''.padEnd(34)} ${'status only'.padStart(11)} ${'+ traffic'.padStart(11)} ${'added'.padStart(11)}`,
      row('fresh Route (apply, wait, verify)', fresh),
      row('Route already ready and serving', ready),
      ''
    ].join('\n')
  )
}

await main()

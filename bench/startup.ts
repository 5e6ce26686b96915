// Figure 4, start-up. Two measures: from spawning a gate to its first API request reaching the proxy
// (on a Route that is already ready, so each run ends on its own); and the whole wall time of the
// commands that touch no cluster (--version, --help, a snapshot of the shipped example) against
// `kubectl version --client`, with V8's compile cache cold (a fresh cache directory each run) and warm
// (the directory a former run filled, as a user's or a self-hosted runner's cache is).
import { mkdtemp, readdir, stat } from 'node:fs/promises'
import path from 'node:path'
import { expectExit, launchTool, type BenchContext, type Tool } from './context.ts'
import type { RouteRef } from './fixture.ts'
import { launch } from './process.ts'

export interface StartupResult {
  firstRequestMs: Record<Tool, number[]>
  sizeBytes: Record<Tool, number>
}

export type CacheState = 'cold' | 'warm'

export const OFFLINE_COMMANDS = {
  '--version': ['--version'],
  '--help': ['--help'],
  'snapshot of examples/cluster-dump.yaml': ['check', '--from-file', 'examples/cluster-dump.yaml'],
  'predict one Route (examples/pull-request/canary.yaml)': [
    'predict',
    '--manifests',
    'examples/pull-request/canary.yaml',
    '--from-file',
    'examples/cluster-dump.yaml'
  ]
} as const

export type OfflineCommand = keyof typeof OFFLINE_COMMANDS

export interface CommandStartupResult {
  /** wall time of `kubectl version --client`, the yardstick */
  kubectlVersionMs: number[]
  /** wall time of each route-gate command, by compile-cache state */
  routeGateMs: Record<OfflineCommand, Record<CacheState, number[]>>
}

async function sizeOf(file: string): Promise<number> {
  const info = await stat(file)
  if (!info.isDirectory()) return info.size
  const sizes = await Promise.all(
    (await readdir(file)).map((entry) => sizeOf(path.join(file, entry)))
  )
  return sizes.reduce((sum, size) => sum + size, 0)
}

export async function measureStartup(
  ctx: BenchContext,
  readyRoute: RouteRef,
  trials: number
): Promise<StartupResult> {
  const firstRequestMs: Record<Tool, number[]> = { 'route-gate': [], 'kubectl wait': [] }
  for (let i = 0; i < trials; i++) {
    for (const tool of ['route-gate', 'kubectl wait'] as const) {
      ctx.proxy.reset()
      const measured = launchTool(ctx, tool, readyRoute, 'proxy')
      await expectExit(measured.finished, 0, tool)
      const first = ctx.proxy.seen[0]
      if (first === undefined) throw new Error(`${tool} made no API request`)
      firstRequestMs[tool].push(first.at - measured.startedAt)
    }
  }
  return {
    firstRequestMs,
    sizeBytes: {
      'route-gate': await sizeOf(path.join(ctx.repo, 'dist')),
      'kubectl wait': await sizeOf(ctx.kubectl)
    }
  }
}

/** What the offline commands need of the bench: no cluster, only kubectl and a place to run. */
export type OfflineContext = Pick<BenchContext, 'repo' | 'home' | 'kubectl'>

async function wallMs(
  ctx: OfflineContext,
  command: string,
  args: readonly string[],
  cacheHome: string,
  code: number
): Promise<number> {
  const env = { PATH: process.env.PATH, HOME: ctx.home, XDG_CACHE_HOME: cacheHome }
  const result = await expectExit(
    launch(command, [...args], { env, cwd: ctx.repo }).finished,
    code,
    `${path.basename(command)} ${args.join(' ')}`
  )
  return result.endedAt - result.startedAt
}

/** Each trial runs every command once, kubectl first, then route-gate cold and warm. */
export async function measureCommandStartup(
  ctx: OfflineContext,
  trials: number
): Promise<CommandStartupResult> {
  const cli = path.join(ctx.repo, 'dist', 'cli.js')
  const warmCache = await mkdtemp(path.join(ctx.home, 'cache-warm-'))
  const routeGateMs = Object.fromEntries(
    Object.keys(OFFLINE_COMMANDS).map((c) => [c, { cold: [], warm: [] }])
  ) as unknown as CommandStartupResult['routeGateMs']
  const kubectlVersionMs: number[] = []
  // fills the warm cache: every chunk these commands load is compiled once
  for (const args of Object.values(OFFLINE_COMMANDS)) {
    await wallMs(ctx, process.execPath, [cli, ...args], warmCache, args[0] === 'check' ? 1 : 0)
  }
  for (let i = 0; i < trials; i++) {
    kubectlVersionMs.push(await wallMs(ctx, ctx.kubectl, ['version', '--client'], warmCache, 0))
    for (const [name, args] of Object.entries(OFFLINE_COMMANDS) as [
      OfflineCommand,
      readonly string[]
    ][]) {
      const code = args[0] === 'check' ? 1 : 0
      const coldCache = await mkdtemp(path.join(ctx.home, 'cache-cold-'))
      routeGateMs[name].cold.push(
        await wallMs(ctx, process.execPath, [cli, ...args], coldCache, code)
      )
      routeGateMs[name].warm.push(
        await wallMs(ctx, process.execPath, [cli, ...args], warmCache, code)
      )
    }
  }
  return { kubectlVersionMs, routeGateMs }
}

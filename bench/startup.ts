// Figure 4, start-up: from spawning the process to its first API request reaching the proxy, on a
// Route that is already ready (so each run ends on its own), and what each tool weighs on disk.
import { readdir, stat } from 'node:fs/promises'
import path from 'node:path'
import { expectExit, launchTool, type BenchContext, type Tool } from './context.ts'
import type { RouteRef } from './fixture.ts'

export interface StartupResult {
  firstRequestMs: Record<Tool, number[]>
  sizeBytes: Record<Tool, number>
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

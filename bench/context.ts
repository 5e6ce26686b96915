// What every figure shares: the cluster, the fixture, the proxy, and how route-gate and its peer
// (`kubectl wait`, built at the API server's version by test/cluster/build-binaries.sh) are started.
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import type { ClusterEnv } from '../test/cluster/env.ts'
import type { AdminApi } from './api.ts'
import { COLLECTION, KIND, routeArg, type Fixture, type RouteRef } from './fixture.ts'
import { launch, type Finished, type Measured } from './process.ts'
import type { CountingProxy } from './proxy.ts'

export interface BenchContext {
  env: ClusterEnv
  api: AdminApi
  fixture: Fixture
  proxy: CountingProxy
  repo: string
  /** kubeconfig pointing at the proxy */
  proxyKubeconfig: string
  kubectl: string
  /** kubectl's discovery cache, warmed once before any measurement */
  kubectlCache: string
  /** an empty HOME for the measured processes, so nothing of the developer's setup leaks in */
  home: string
  log: (line: string) => void
}

export type Tool = 'route-gate' | 'kubectl wait'

/** Connect directly (TLS, admin certificate) or through the counting proxy. */
export type Via = 'direct' | 'proxy'

function kubeconfigFor(ctx: BenchContext, via: Via): string {
  return via === 'direct' ? ctx.env.kubeconfig : ctx.proxyKubeconfig
}

function processEnv(ctx: BenchContext, via: Via): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: ctx.home, KUBECONFIG: kubeconfigFor(ctx, via) }
}

// One --routes flag per few hundred Routes keeps every argument far below Linux's 128 KiB limit.
function routeFlags(routes: RouteRef[]): string[] {
  const flags: string[] = []
  for (let i = 0; i < routes.length; i += 500) {
    flags.push(
      '--routes',
      routes
        .slice(i, i + 500)
        .map(routeArg)
        .join(',')
    )
  }
  return flags
}

export function launchGate(ctx: BenchContext, routes: RouteRef[], via: Via): Measured {
  return launch(
    process.execPath,
    [
      path.join(ctx.repo, 'dist', 'cli.js'),
      'check',
      ...routeFlags(routes),
      '--timeout',
      '10m',
      '--format',
      'json'
    ],
    { env: processEnv(ctx, via), cwd: ctx.repo, watchFor: /^Verdict: /m }
  )
}

export function launchSnapshot(ctx: Pick<BenchContext, 'repo' | 'home'>, dump: string): Measured {
  return launch(
    process.execPath,
    [path.join(ctx.repo, 'dist', 'cli.js'), 'check', '--from-file', dump, '--format', 'markdown'],
    { env: { PATH: process.env.PATH, HOME: ctx.home }, cwd: ctx.repo }
  )
}

/** bench/node-floor.mjs on the same Route: what Node itself costs from the write to the exit. */
export function launchNodeFloor(ctx: BenchContext, route: RouteRef): Measured {
  return launch(
    process.execPath,
    [path.join(ctx.repo, 'bench', 'node-floor.mjs'), COLLECTION, route.namespace, route.name],
    { env: processEnv(ctx, 'direct'), cwd: ctx.repo }
  )
}

/**
 * `kubectl wait` on the event route-gate waits for. Both conditions become True in one status write,
 * so waiting on ResolvedRefs of the first parent is the same moment as route-gate's verdict.
 */
export function launchKubectlWait(ctx: BenchContext, route: RouteRef, via: Via): Measured {
  return launch(
    ctx.kubectl,
    [
      'wait',
      `--for=jsonpath={.status.parents[0].conditions[?(@.type=="ResolvedRefs")].status}=True`,
      `${KIND.toLowerCase()}/${route.name}`,
      '--namespace',
      route.namespace,
      '--timeout=600s',
      `--cache-dir=${ctx.kubectlCache}`
    ],
    { env: processEnv(ctx, via), cwd: ctx.repo }
  )
}

export function launchTool(ctx: BenchContext, tool: Tool, route: RouteRef, via: Via): Measured {
  return tool === 'route-gate' ? launchGate(ctx, [route], via) : launchKubectlWait(ctx, route, via)
}

/** Fills kubectl's discovery cache the way a CI runner's second kubectl call finds it. */
export async function warmKubectl(ctx: BenchContext): Promise<void> {
  const warm = launch(ctx.kubectl, ['api-resources', `--cache-dir=${ctx.kubectlCache}`], {
    env: processEnv(ctx, 'proxy'),
    cwd: ctx.repo
  })
  await expectExit(warm.finished, 0, 'kubectl api-resources')
}

/** The process's result, or an error with its stderr when it exits otherwise than expected. */
export async function expectExit(
  finished: Promise<Finished>,
  code: number,
  what: string
): Promise<Finished> {
  const result = await finished
  if (result.code !== code) {
    throw new Error(`${what} exited with ${result.code}, expected ${code}:\n${result.stderr}`)
  }
  return result
}

/** Waits `ms`, failing if the process ends meanwhile (it would have missed the write). */
export async function stillRunningAfter(
  measured: Measured,
  ms: number,
  what: string
): Promise<void> {
  const early = await Promise.race([measured.finished, sleep(ms).then(() => undefined)])
  if (early !== undefined) {
    throw new Error(`${what} ended before the status write (exit ${early.code}):\n${early.stderr}`)
  }
}

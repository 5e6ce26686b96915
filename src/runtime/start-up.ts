// What both entry points do before loading anything else. Only Node built-ins that every Node has
// are imported here (named imports that an old Node lacks fail before any code runs).
import module from 'node:module'
import os from 'node:os'
import path from 'node:path'
import pkg from '../../package.json' with { type: 'json' }
import { avoidExitDeadlock } from './exit-deadlock.ts'

/**
 * The oldest Node the bundle runs on, from package.json's engines field (">=22.19.0": the cluster
 * client's HTTP library, undici 8, needs 22.19), as [major, minor, patch].
 */
export const MIN_NODE = versionParts(pkg.engines.node)

function versionParts(text: string): number[] {
  return (/(\d+)\.(\d+)\.(\d+)/.exec(text) ?? []).slice(1).map(Number)
}

/** The one line that refuses a Node older than MIN_NODE, or undefined when it is recent enough. */
export function nodeTooOld(version: string): string | undefined {
  const parts = versionParts(version)
  const newer = MIN_NODE.findIndex((floor, i) => parts[i] !== floor)
  if (parts.length === 3 && (newer === -1 || parts[newer]! > MIN_NODE[newer]!)) return undefined
  const [major, minor, patch] = MIN_NODE
  const floor = patch === 0 ? `${major}.${minor}` : MIN_NODE.join('.')
  return `route-gate needs Node ${floor} or newer; this is ${version}`
}

export type Face = 'cli' | 'action'

/**
 * Where V8's compile cache goes, a directory that outlives the process: the runner's tool cache
 * (kept between jobs on self-hosted runners) or its temp directory in the Action, the user's cache
 * directory on the CLI. Undefined when NODE_COMPILE_CACHE already chose one (Node then has it on).
 */
export function compileCacheDir(
  face: Face,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform,
  home: string
): string | undefined {
  if (env.NODE_COMPILE_CACHE) return undefined
  const base =
    face === 'action'
      ? env.RUNNER_TOOL_CACHE || env.RUNNER_TEMP || os.tmpdir()
      : platform === 'win32'
        ? env.LOCALAPPDATA || path.join(home, 'AppData', 'Local')
        : platform === 'darwin'
          ? path.join(home, 'Library', 'Caches')
          : env.XDG_CACHE_HOME || path.join(home, '.cache')
  return path.join(base, 'route-gate', 'node-compile-cache')
}

/**
 * A reader that goes away (`route-gate check … | head -1`) must not turn the run into a stack
 * trace: the exit code still carries the verdict, so what can no longer be written is dropped.
 */
function dropWritesToClosedOutput(): void {
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined)
}

/** What the CLI answers from start-up code alone, too short to reach Node's exit hang. */
const QUICK_ANSWERS = new Set([undefined, '--version', '--help', '-h', 'help'])

/**
 * Whether the run may read a cluster or a large input: every Action run, every CLI verb. The flags
 * must be set now, before any of the bundle is compiled, or never.
 */
export function mayRunLong(face: Face, argv: readonly string[]): boolean {
  return face === 'action' || !QUICK_ANSWERS.has(argv[2])
}

/**
 * Refuses an old Node (exit 2, one line: on the CLI to stderr, in the Action as an error annotation),
 * moves V8's code building off the threads that can hang the exit, then turns the compile cache on:
 * the code loaded after this is compiled once per version, not on every run.
 * NODE_DISABLE_COMPILE_CACHE=1 turns it off, as for any Node program.
 */
export function startUp(face: Face): void {
  const refusal = nodeTooOld(process.version)
  if (refusal !== undefined) {
    if (face === 'action') process.stdout.write(`::error::${refusal}\n`)
    else process.stderr.write(`${refusal}\n`)
    process.exit(2)
  }
  dropWritesToClosedOutput()
  if (mayRunLong(face, process.argv)) avoidExitDeadlock()
  const dir = compileCacheDir(face, process.env, process.platform, os.homedir())
  // a cache that cannot be written costs only speed: Node reports it in the status, never throws.
  if (dir !== undefined) module.enableCompileCache(dir)
}

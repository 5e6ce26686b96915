// What both entry points do before loading anything else. Only Node built-ins that every Node has
// are imported here (named imports that an old Node lacks fail before any code runs).
import module from 'node:module'
import os from 'node:os'
import path from 'node:path'
import pkg from '../package.json' with { type: 'json' }

/** The oldest Node major the bundle runs on: package.json's engines field (">=24"). */
export const MIN_NODE_MAJOR = Number(/\d+/.exec(pkg.engines.node)?.[0])

/** The one line that refuses a Node older than MIN_NODE_MAJOR, or undefined when it is recent enough. */
export function nodeTooOld(version: string): string | undefined {
  const major = Number(/^v?(\d+)/.exec(version)?.[1])
  if (major >= MIN_NODE_MAJOR) return undefined
  return `route-gate needs Node ${MIN_NODE_MAJOR} or newer; this is ${version}`
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
 * Refuses an old Node (exit 2, one line: on the CLI to stderr, in the Action as an error annotation),
 * then turns the compile cache on: the code loaded after this is compiled once per version, not on
 * every run. NODE_DISABLE_COMPILE_CACHE=1 turns it off, as for any Node program.
 */
export function startUp(face: Face): void {
  const refusal = nodeTooOld(process.version)
  if (refusal !== undefined) {
    if (face === 'action') process.stdout.write(`::error::${refusal}\n`)
    else process.stderr.write(`${refusal}\n`)
    process.exit(2)
  }
  const dir = compileCacheDir(face, process.env, process.platform, os.homedir())
  // a cache that cannot be written costs only speed: Node reports it in the status, never throws
  if (dir !== undefined) module.enableCompileCache(dir)
}

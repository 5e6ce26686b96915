// One measured process: started under GNU time for its exact peak RSS and CPU time (polling
// /proc/<pid>/status would miss a peak in the last moments, which is where a report is rendered),
// with the moment it was started and the moment it exited on the bench's clock.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync } from 'node:fs'
import { readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'

const GNU_TIME = '/usr/bin/time'

export interface Finished {
  code: number | null
  stdout: string
  stderr: string
  /** performance.now() at spawn and at exit */
  startedAt: number
  endedAt: number
  /** performance.now() when a stderr line first matched `watchFor`, if given */
  matchedAt?: number
  peakRssMb: number
  cpuMs: number
}

export interface Measured {
  startedAt: number
  finished: Promise<Finished>
}

export function requireGnuTime(): void {
  if (!existsSync(GNU_TIME)) {
    throw new Error(
      `${GNU_TIME} (GNU time) is needed for peak RSS and CPU time: apt-get install time`
    )
  }
}

export function launch(
  command: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; cwd: string; watchFor?: RegExp }
): Measured {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'route-gate-bench-time-'))
  const timeFile = path.join(dir, 'time')
  const startedAt = performance.now()
  const child = spawn(GNU_TIME, ['-f', '%M %U %S', '-o', timeFile, command, ...args], {
    env: options.env,
    cwd: options.cwd,
    stdio: ['ignore', 'pipe', 'pipe']
  })
  const closed = new Promise((resolve) => child.on('close', resolve))
  const finished = (async (): Promise<Finished> => {
    let stdout = ''
    let stderr = ''
    let matchedAt: number | undefined
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString()
      if (matchedAt === undefined && options.watchFor?.test(stderr)) matchedAt = performance.now()
    })
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject)
      child.on('exit', (exitCode) => resolve(exitCode))
    })
    const endedAt = performance.now()
    await closed
    const [rssKb = NaN, user = NaN, system = NaN] = (await readFile(timeFile, 'utf8'))
      .trim()
      .split('\n')
      .at(-1)!
      .split(' ')
      .map(Number)
    await rm(dir, { recursive: true, force: true })
    return {
      code,
      stdout,
      stderr,
      startedAt,
      endedAt,
      matchedAt,
      peakRssMb: rssKb / 1024,
      cpuMs: (user + system) * 1000
    }
  })()
  return { startedAt, finished }
}

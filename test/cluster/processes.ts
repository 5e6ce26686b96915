// Starting, probing and stopping the control plane's processes. They are spawned detached so that
// `cluster:up` can exit and leave them running; `down` later stops them by pid alone, so every pid is
// checked against its command line first (a recycled pid must never be killed).
import { spawn } from 'node:child_process'
import { closeSync, openSync, readFileSync } from 'node:fs'
import { request } from 'node:https'
import { createServer } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'

// Below the kernel's ephemeral range (32768-60999 on Linux): an outgoing connection never takes one of
// these ports as its source. Above all, a client retrying a server that is down can connect to
// itself on that port and keep it, so the restarted server could not listen again.
const SERVER_PORTS = { low: 20_000, high: 32_000 }

export function bindable(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer()
    server.once('error', () => resolve(false))
    server.listen(port, host, () => server.close(() => resolve(true)))
  })
}

export async function freePorts(count: number): Promise<number[]> {
  const ports: number[] = []
  while (ports.length < count) {
    const port =
      SERVER_PORTS.low + Math.floor(Math.random() * (SERVER_PORTS.high - SERVER_PORTS.low))
    if (!ports.includes(port) && (await bindable(port))) ports.push(port)
  }
  return ports
}

/** Starts `binary` in its own process group with stdout and stderr appended to `logFile`. */
export function startDetached(
  binary: string,
  args: string[],
  logFile: string,
  env?: Record<string, string>
): number {
  const fd = openSync(logFile, 'a')
  try {
    const child = spawn(binary, args, {
      detached: true,
      stdio: ['ignore', fd, fd],
      env: env === undefined ? process.env : { ...process.env, ...env }
    })
    if (child.pid === undefined) throw new Error(`could not start ${binary} (see ${logFile})`)
    child.unref()
    return child.pid
  } finally {
    closeSync(fd)
  }
}

/** True when `pid` is a live (not zombie) process whose command line starts with `binary`. */
export function isRunning(pid: number, binary: string): boolean {
  try {
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0]
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0]
    return state !== 'Z' && command === binary
  } catch {
    return false
  }
}

export async function stopProcess(pid: number, binary: string, graceMs = 10_000): Promise<void> {
  if (!isRunning(pid, binary)) return
  process.kill(pid, 'SIGTERM')
  const deadline = Date.now() + graceMs
  while (Date.now() < deadline) {
    if (!isRunning(pid, binary)) return
    await sleep(100)
  }
  if (isRunning(pid, binary)) process.kill(pid, 'SIGKILL')
}

export interface Probe {
  url: string
  /** CA certificate (PEM) for https URLs */
  ca?: string
}

/** Resolves with the body when the URL answers 200 within `timeoutMs`. */
async function get(probe: Probe, timeoutMs: number): Promise<string> {
  if (probe.url.startsWith('http:')) {
    const response = await fetch(probe.url, { signal: AbortSignal.timeout(timeoutMs) })
    const body = await response.text()
    if (!response.ok) throw new Error(`${response.status} ${body.slice(0, 200)}`)
    return body
  }
  return new Promise((resolve, reject) => {
    const req = request(probe.url, { ca: probe.ca, timeout: timeoutMs }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () =>
        res.statusCode === 200 ? resolve(body) : reject(new Error(`${res.statusCode} ${body}`))
      )
    })
    req.on('timeout', () => req.destroy(new Error('timed out')))
    req.on('error', reject)
    req.end()
  })
}

export async function isHealthy(probe: Probe): Promise<boolean> {
  try {
    await get(probe, 2000)
    return true
  } catch {
    return false
  }
}

/**
 * Polls until the probe answers 200. Gives up early when the process has died, with the log named,
 * so a bad flag fails in a second rather than at the timeout.
 */
export async function waitHealthy(
  what: string,
  probe: Probe,
  proc: { pid: number; binary: string; log: string },
  timeoutMs: number
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  let last = 'no answer yet'
  while (Date.now() < deadline) {
    try {
      await get(probe, 2000)
      return
    } catch (error) {
      last = error instanceof Error ? error.message : String(error)
    }
    if (!isRunning(proc.pid, proc.binary)) {
      throw new Error(`${what} exited during startup; see ${proc.log}\n${tail(proc.log)}`)
    }
    await sleep(250)
  }
  throw new Error(
    `${what} not healthy at ${probe.url} after ${timeoutMs} ms (${last}); see ${proc.log}`
  )
}

export function tail(file: string, lines = 15): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n')
  } catch {
    return ''
  }
}

// Test backends in network namespaces this harness creates: the API server refuses loopback endpoint
// addresses, and test traffic may go only to loopback or into such namespaces. Each backend gets its
// own namespace, a veth pair with a private /30 (host side .1, namespace side .2) and a tiny HTTP
// server inside; EndpointSlices point at the namespace side. Every namespace made is recorded in the
// cluster directory, so `npm run cluster:down` removes what a crashed test left behind.
import { spawn, execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { appendFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'

const SERVER = fileURLToPath(new URL('netns-backend.ts', import.meta.url))
export const REGISTRY = 'netns.list'
const BACKEND_PORT = 8080

export interface BackendAnswer {
  status?: number
  body?: string
  contentType?: string
}

export interface BackendRequest {
  method: string
  url: string
  host: string
}

export interface NetnsBackend {
  /** the network namespace */
  netns: string
  /** the namespace side of the /30: the EndpointSlice address */
  address: string
  port: number
  /** what the backend answers from now on */
  answer(answers: { default?: BackendAnswer; paths?: Record<string, BackendAnswer> }): void
  /** every request it got so far */
  requests(): BackendRequest[]
  stop(): Promise<void>
}

export function ip(...args: string[]): string {
  return execFileSync('ip', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
}

/** 10.213.X.Y/30 blocks, X from the cluster directory (one worktree's backends never meet another's). */
function subnets(clusterDir: string): string[] {
  const x = createHash('sha256').update(clusterDir).digest()[0] ?? 0
  return Array.from({ length: 64 }, (_, i) => `10.213.${x}.${i * 4}`)
}

function freeSubnet(clusterDir: string): string {
  const used = ip('-o', '-4', 'addr', 'show')
  const free = subnets(clusterDir).find((base) => {
    const prefix = base.split('.').slice(0, 3).join('.')
    const last = Number(base.split('.')[3])
    return ![1, 2].some((n) => used.includes(` ${prefix}.${last + n}/`))
  })
  if (free === undefined) throw new Error('no free /30 left in 10.213.0.0/16 for a test backend')
  return free
}

function plus(base: string, n: number): string {
  const parts = base.split('.').map(Number)
  parts[3] = (parts[3] ?? 0) + n
  return parts.join('.')
}

export async function startNetnsBackend(clusterDir: string): Promise<NetnsBackend> {
  const base = freeSubnet(clusterDir)
  const id = createHash('sha256')
    .update(`${clusterDir}${base}${Date.now()}`)
    .digest('hex')
    .slice(0, 6)
  const netns = `rgt-${id}`
  const hostSide = `rgh-${id}`
  const nsSide = `rgn-${id}`
  appendFileSync(path.join(clusterDir, REGISTRY), `${netns}\n`)
  ip('netns', 'add', netns)
  ip('link', 'add', hostSide, 'type', 'veth', 'peer', 'name', nsSide)
  ip('link', 'set', nsSide, 'netns', netns)
  ip('addr', 'add', `${plus(base, 1)}/30`, 'dev', hostSide)
  ip('link', 'set', hostSide, 'up')
  ip('-n', netns, 'addr', 'add', `${plus(base, 2)}/30`, 'dev', nsSide)
  ip('-n', netns, 'link', 'set', nsSide, 'up')
  ip('-n', netns, 'link', 'set', 'lo', 'up')

  const dir = await mkdtemp(path.join(os.tmpdir(), 'route-gate-netns-'))
  const answersFile = path.join(dir, 'answers.json')
  const logFile = path.join(dir, 'requests.log')
  writeFileSync(logFile, '', { mode: 0o600 })
  const address = plus(base, 2)
  const child = spawn(
    'ip',
    [
      'netns',
      'exec',
      netns,
      process.execPath,
      SERVER,
      address,
      String(BACKEND_PORT),
      answersFile,
      logFile
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] }
  )
  let stderr = ''
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  const listening = new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve())
    child.once('exit', (code) => reject(new Error(`netns backend exited (${code}): ${stderr}`)))
  })
  await Promise.race([
    listening,
    sleep(10_000).then(() => {
      throw new Error(`netns backend did not start within 10 s: ${stderr}`)
    })
  ])
  return {
    netns,
    address,
    port: BACKEND_PORT,
    answer(answers) {
      writeFileSync(answersFile, JSON.stringify(answers), { mode: 0o600 })
    },
    requests() {
      return readFileSync(logFile, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as BackendRequest)
    },
    async stop() {
      child.kill('SIGTERM')
      await new Promise((resolve) =>
        child.exitCode === null ? child.once('exit', resolve) : resolve(null)
      )
      removeNetns(netns)
      await rm(dir, { recursive: true, force: true })
    }
  }
}

export function removeNetns(netns: string): void {
  // the veth pair goes with the namespace; a server still inside is ended first
  try {
    const pids = ip('netns', 'pids', netns)
      .split('\n')
      .filter((p) => p !== '')
    for (const pid of pids) process.kill(Number(pid), 'SIGKILL')
    ip('netns', 'del', netns)
  } catch {
    // already gone
  }
}

/** Removes every namespace recorded in the cluster directory (cluster:down). */
export function removeTestNetworks(clusterDir: string): number {
  const file = path.join(clusterDir, REGISTRY)
  if (!existsSync(file)) return 0
  const recorded = [
    ...new Set(
      readFileSync(file, 'utf8')
        .split('\n')
        .filter((n) => n !== '')
    )
  ]
  const present = ip('netns', 'list')
  let removed = 0
  for (const netns of recorded) {
    if (!present.includes(netns)) continue
    removeNetns(netns)
    removed++
  }
  rmSync(file, { force: true })
  return removed
}

/** A Service and an EndpointSlice that send the Service's port 8080 to the backend. */
export function backendYaml(name: string, backend: Pick<NetnsBackend, 'address' | 'port'>): string {
  return `${serviceYaml(name)}---
${endpointSliceYaml(name, backend)}`
}

export function serviceYaml(name: string): string {
  return `apiVersion: v1
kind: Service
metadata:
  name: ${name}
spec:
  ports:
  - name: http
    port: 8080
`
}

export function endpointSliceYaml(
  name: string,
  backend: Pick<NetnsBackend, 'address' | 'port'>
): string {
  return `apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata:
  name: ${name}-netns
  labels:
    kubernetes.io/service-name: ${name}
addressType: IPv4
endpoints:
- addresses: [${backend.address}]
  conditions:
    ready: true
ports:
- name: http
  port: ${backend.port}
  protocol: TCP
`
}

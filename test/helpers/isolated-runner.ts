// A runner with no way out: a network namespace whose only interface is its loopback, carrying
// addresses the test chooses (169.254.169.254 among them), each with a recording HTTP server. The API server on the host's loopback is reached through a Unix socket bridge, so a
// bundle started inside (`ip netns exec`) sees the test cluster and these servers, and a packet sent
// anywhere else has no route: a guard that failed could not reach the machine's real network.
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { REGISTRY, ip, removeNetns, type BackendAnswer, type BackendRequest } from './netns.ts'

const BACKEND = fileURLToPath(new URL('netns-backend.ts', import.meta.url))
const BRIDGE = fileURLToPath(new URL('netns-bridge.ts', import.meta.url))
const NXDOMAIN = fileURLToPath(new URL('nxdomain-dns.ts', import.meta.url))

export interface RecordingServer {
  address: string
  /** what it answers from now on */
  answer(answers: { default?: BackendAnswer; paths?: Record<string, BackendAnswer> }): void
  requests(): BackendRequest[]
}

export interface IsolatedRunner {
  netns: string
  /** `ip netns exec NAME`: the prefix a bundle runs under */
  prefix: string[]
  servers: Map<string, RecordingServer>
  stop(): Promise<void>
}

async function started(args: string[], what: string): Promise<ReturnType<typeof spawn>> {
  const child = spawn('ip', args, { stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  await Promise.race([
    new Promise<void>((resolve, reject) => {
      child.stdout.once('data', () => resolve())
      child.once('exit', (code) => reject(new Error(`${what} exited (${code}): ${stderr}`)))
    }),
    sleep(10_000).then(() => {
      throw new Error(`${what} did not start within 10 s: ${stderr}`)
    })
  ])
  return child
}

/**
 * `addresses` get a recording server on `port` each; `apiServer` (https://127.0.0.1:PORT) is
 * bridged so that the same URL works inside.
 */
export async function startIsolatedRunner(
  clusterDir: string,
  addresses: string[],
  port: number,
  apiServer: string,
  options: {
    /** answer every DNS lookup inside with NXDOMAIN (ip netns exec mounts /etc/netns/NAME/resolv.conf) */
    nxdomain?: boolean
    /** names the bundle inside resolves, from its own /etc/hosts (no DNS server is asked for them) */
    hosts?: Record<string, string>
  } = {}
): Promise<IsolatedRunner> {
  const id = createHash('sha256')
    .update(`${clusterDir}${Date.now()}${Math.random()}`)
    .digest('hex')
    .slice(0, 6)
  const netns = `rgi-${id}`
  appendFileSync(path.join(clusterDir, REGISTRY), `${netns}\n`)
  ip('netns', 'add', netns)
  const children: ReturnType<typeof spawn>[] = []
  const dir = await mkdtemp(path.join(os.tmpdir(), 'route-gate-isolated-'))
  const api = new URL(apiServer)
  const socketPath = path.join(dir, 'api.sock')
  const hostSide = net.createServer((inside) => {
    const outside = net.connect(Number(api.port), api.hostname)
    inside.pipe(outside).pipe(inside)
    inside.on('error', () => outside.destroy())
    outside.on('error', () => inside.destroy())
  })
  const etc = path.join('/etc/netns', netns)
  const stop = async (): Promise<void> => {
    for (const child of children) child.kill('SIGTERM')
    await new Promise<void>((resolve) => hostSide.close(() => resolve()))
    removeNetns(netns)
    await rm(etc, { recursive: true, force: true })
    await rm(dir, { recursive: true, force: true })
  }
  try {
    ip('-n', netns, 'link', 'set', 'lo', 'up')
    // on the namespace's own loopback: no module needed, and a packet to them never leaves it
    for (const address of addresses) ip('-n', netns, 'addr', 'add', `${address}/32`, 'dev', 'lo')
    await new Promise<void>((resolve) => hostSide.listen(socketPath, resolve))
    const exec = ['netns', 'exec', netns, process.execPath]
    await mkdir(etc, { recursive: true })
    if (options.hosts !== undefined) {
      const lines = Object.entries({ localhost: '127.0.0.1', ...options.hosts }).map(
        ([name, address]) => `${address} ${name}\n`
      )
      await writeFile(path.join(etc, 'hosts'), lines.join(''))
    }
    if (options.nxdomain === true) {
      await writeFile(path.join(etc, 'resolv.conf'), 'nameserver 127.0.0.1\n')
      children.push(await started([...exec, NXDOMAIN, '127.0.0.1'], 'NXDOMAIN DNS server'))
    }
    children.push(
      await started([...exec, BRIDGE, api.hostname, api.port, socketPath], 'API bridge')
    )
    const servers = new Map<string, RecordingServer>()
    for (const [i, address] of addresses.entries()) {
      const answers = path.join(dir, `answers-${i}.json`)
      const log = path.join(dir, `requests-${i}.log`)
      writeFileSync(log, '', { mode: 0o600 })
      children.push(
        await started(
          [...exec, BACKEND, address, String(port), answers, log],
          `server on ${address}`
        )
      )
      servers.set(address, {
        address,
        answer: (a) => writeFileSync(answers, JSON.stringify(a), { mode: 0o600 }),
        requests: () =>
          readFileSync(log, 'utf8')
            .split('\n')
            .filter((line) => line !== '')
            .map((line) => JSON.parse(line) as BackendRequest)
      })
    }
    return { netns, prefix: ['ip', 'netns', 'exec', netns], servers, stop }
  } catch (error) {
    await stop()
    throw error
  }
}

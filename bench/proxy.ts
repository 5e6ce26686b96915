// A loopback HTTP proxy in front of the API server that records every request of the process measured
// through it: exact request counts per process (the API server's counters cannot tell clients apart),
// the moment of the first request (start-up), and when every watch is open (readiness before a write).
// The proxy adds the admin client certificate upstream, so the measured process needs no credentials.
import { writeFile } from 'node:fs/promises'
import http from 'node:http'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import { performance } from 'node:perf_hooks'
import type { AdminApi } from './api.ts'

export interface SeenRequest {
  method: string
  /** path without the query */
  path: string
  watch: boolean
  /** performance.now() when the request reached the proxy */
  at: number
}

export class CountingProxy {
  readonly seen: SeenRequest[] = []
  private readonly server: http.Server
  private readonly agent: https.Agent
  private waiters: (() => void)[] = []

  private constructor(api: AdminApi) {
    this.agent = new https.Agent({ keepAlive: true, maxSockets: 512, ...api.tls })
    this.server = http.createServer((incoming, outgoing) => {
      const url = new URL(incoming.url ?? '/', 'http://proxy')
      this.seen.push({
        method: incoming.method ?? 'GET',
        path: url.pathname,
        watch: url.searchParams.get('watch') === 'true' || url.searchParams.get('watch') === '1',
        at: performance.now()
      })
      this.waiters.forEach((wake) => wake())
      const headers = { ...incoming.headers, host: api.server.host }
      delete headers.authorization
      const upstream = https.request(
        {
          host: api.server.hostname,
          port: api.server.port,
          method: incoming.method,
          path: incoming.url,
          headers,
          agent: this.agent
        },
        (response) => {
          outgoing.writeHead(response.statusCode ?? 502, response.headers)
          outgoing.flushHeaders()
          response.pipe(outgoing)
        }
      )
      upstream.on('error', () => outgoing.destroy())
      outgoing.on('close', () => upstream.destroy())
      incoming.pipe(upstream)
    })
  }

  static async start(api: AdminApi): Promise<CountingProxy> {
    const proxy = new CountingProxy(api)
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve))
    return proxy
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
  }

  reset(): void {
    this.seen.length = 0
  }

  /** Resolves once the requests seen so far satisfy `predicate`; rejects after `timeoutMs`. */
  async until(predicate: (seen: SeenRequest[]) => boolean, timeoutMs: number): Promise<void> {
    const deadline = performance.now() + timeoutMs
    while (!predicate(this.seen)) {
      const left = deadline - performance.now()
      if (left <= 0) throw new Error(`proxy: condition not met after ${timeoutMs} ms`)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 100))
        this.waiters.push(() => {
          clearTimeout(timer)
          resolve()
        })
      })
      this.waiters = []
    }
  }

  /** Writes a kubeconfig that points at the proxy (plain HTTP on loopback; no credentials). */
  async writeKubeconfig(file: string): Promise<string> {
    const text = [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      '- name: bench',
      '  cluster:',
      `    server: ${this.url}`,
      '    insecure-skip-tls-verify: true',
      'users:',
      '- name: bench',
      '  user:',
      '    token: via-proxy',
      'contexts:',
      '- name: bench',
      '  context:',
      '    cluster: bench',
      '    user: bench',
      'current-context: bench',
      ''
    ].join('\n')
    await writeFile(file, text, { mode: 0o600 })
    return file
  }

  async close(): Promise<void> {
    this.server.closeAllConnections()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
    this.agent.destroy()
  }
}

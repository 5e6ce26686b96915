// Loopback HTTP and HTTPS servers for the probe's tests, and a throw-away CA with a certificate for
// chosen DNS names (openssl). Everything listens on 127.0.0.1 only.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import type { ProbeRequest } from '../../src/probe/rules/plan-requests.ts'
import { makeCa, signCertificate } from '../cluster/pki.ts'

export interface SeenRequest {
  method: string
  url: string
  host: string
  servername?: string
  headers: http.IncomingHttpHeaders
}

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void

export interface TestServer {
  port: number
  seen: SeenRequest[]
  /** replaces the handler: a test changes what the "data plane" answers while the probe runs */
  handle: (handler: Handler) => void
  close: () => Promise<void>
}

export interface TestPki {
  ca: string
  cert: string
  key: string
}

export function makeTestPki(dnsNames: string[]): TestPki {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'route-gate-probe-pki-'))
  try {
    makeCa(dir, '/CN=route-gate-probe-test-ca')
    signCertificate(
      dir,
      'leaf',
      `/CN=${dnsNames[0]}`,
      `subjectAltName=${dnsNames.map((n) => `DNS:${n}`).join(',')}\n`
    )
    const read = (name: string): string => readFileSync(path.join(dir, name), 'utf8')
    return { ca: read('ca.crt'), cert: read('leaf.crt'), key: read('leaf.key') }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export async function startServer(handler: Handler, tls?: TestPki): Promise<TestServer> {
  const seen: SeenRequest[] = []
  let current = handler
  const listener: Handler = (req, res) => {
    const socket = req.socket as { servername?: string | false }
    seen.push({
      method: req.method ?? '',
      url: req.url ?? '',
      host: req.headers.host ?? '',
      ...(typeof socket.servername === 'string' && { servername: socket.servername }),
      headers: req.headers
    })
    current(req, res)
  }
  const server = tls
    ? https.createServer({ cert: tls.cert, key: tls.key }, listener)
    : http.createServer(listener)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    handle: (next) => {
      current = next
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

/** A data plane in miniature: one hostname routed, every other one gets Traefik's no-route answer. */
export function dataPlane(routedHost: string, backend: Handler): Handler {
  return (req, res) => {
    if ((req.headers.host ?? '').split(':')[0] === routedHost) return backend(req, res)
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
    res.end('404 page not found\n')
  }
}

/** A port that was free a moment ago: nothing listens on it. */
export async function closedPort(): Promise<number> {
  const server = await startServer(() => undefined)
  await server.close()
  return server.port
}

/** A probe request to 127.0.0.1:port for shop.example.com/cart (rule 0), changed by `extra`. */
export function probeRequest(port: number, extra: Partial<ProbeRequest> = {}): ProbeRequest {
  return {
    listener: 'web',
    scheme: 'http',
    address: '127.0.0.1',
    origin: 'status',
    port,
    host: 'shop.example.com',
    method: 'GET',
    path: '/cart',
    headers: {},
    rule: 0,
    verifyTls: true,
    ...extra
  }
}

// Loopback HTTP and HTTPS servers for the probe's tests, and a throw-away CA with a certificate for
// chosen DNS names (openssl). Everything listens on 127.0.0.1 only.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import type { ProbeRequest } from '../../src/probe/plan.ts'

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
  const openssl = (...args: string[]): void => {
    execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] })
  }
  try {
    openssl(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'ca.key',
      '-out',
      'ca.crt',
      '-days',
      '2',
      '-subj',
      '/CN=route-gate-probe-test-ca',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign'
    )
    openssl(
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'leaf.key',
      '-out',
      'leaf.csr',
      '-subj',
      `/CN=${dnsNames[0]}`
    )
    const ext = path.join(dir, 'leaf.ext')
    execFileSync('sh', [
      '-c',
      `printf 'subjectAltName=%s\\n' "$1" > "$2"`,
      'sh',
      dnsNames.map((n) => `DNS:${n}`).join(','),
      ext
    ])
    openssl(
      'x509',
      '-req',
      '-in',
      'leaf.csr',
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'leaf.crt',
      '-days',
      '2',
      '-extfile',
      ext
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

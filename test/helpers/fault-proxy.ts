// A fault-injecting HTTPS proxy on 127.0.0.1 in front of the real kube-apiserver. It terminates TLS
// with a throw-away certificate signed by the test cluster's CA (so a kubeconfig that trusts the
// cluster CA trusts the proxy too), forwards every request with the admin client certificate, and
// lets a test decide per request: pass, reset the connection, answer with an error status, answer
// late, cut a watch stream in the middle, or keep a watch open without sending anything. Every
// request is recorded with what was done to it, so tests can count retries and relists.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import type { AddressInfo, Socket } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import type { ClusterEnv } from './cluster.ts'

export interface ProxiedRequest {
  method: string
  path: string
  query: URLSearchParams
  watch: boolean
  /** 1-based count of requests seen so far, this one included */
  index: number
  /** Date.now() when the request arrived */
  at: number
}

export type FaultAction =
  /** forward untouched */
  | { kind: 'pass' }
  /** close the client's TCP connection with a RST before any answer */
  | { kind: 'reset' }
  /** answer with this status and a V1Status body; the upstream is never asked */
  | { kind: 'status'; status: number; retryAfterSeconds?: number; message?: string }
  /** wait, then forward */
  | { kind: 'delay'; ms: number }
  /** forward, then destroy the connection this long after the response headers */
  | { kind: 'cut'; afterMs: number }
  /** forward the response headers, then nothing: the connection stays open and silent */
  | { kind: 'silence' }

/** Decides what happens to one request; undefined means pass. */
export type FaultRule = (request: ProxiedRequest) => FaultAction | undefined

export interface RecordedExchange extends ProxiedRequest {
  action: FaultAction['kind']
  /** the status the client saw, when it saw one */
  status?: number
  /** a watch stream carried an ERROR event with code 410 */
  goneEvent: boolean
}

export interface FaultProxy {
  url: string
  /** a kubeconfig whose only cluster is the proxy (trusting the cluster CA) */
  kubeconfig: string
  exchanges: RecordedExchange[]
  setRule: (rule: FaultRule | undefined) => void
  /** forgets recorded exchanges */
  clear: () => void
  close: () => Promise<void>
}

interface Pki {
  dir: string
  ca: Buffer
  adminCert: Buffer
  adminKey: Buffer
}

export function clusterPki(env: ClusterEnv): Pki {
  const dir = path.join(env.dataDir, 'pki')
  return {
    dir,
    ca: readFileSync(path.join(dir, 'ca.crt')),
    adminCert: readFileSync(path.join(dir, 'admin.crt')),
    adminKey: readFileSync(path.join(dir, 'admin.key'))
  }
}

/**
 * A key and a certificate signed by the cluster CA, made with openssl in a scratch directory (EC keys:
 * fast). `extensions` is an openssl extfile, e.g. a SAN for a server or clientAuth for a user.
 */
export function signedByClusterCa(
  pki: Pki,
  subject: string,
  extensions: string
): { cert: Buffer; key: Buffer } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'route-gate-pki-'))
  const at = (file: string): string => path.join(dir, file)
  const openssl = (...args: string[]): void => {
    execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] })
  }
  try {
    writeFileSync(at('cert.ext'), extensions)
    openssl('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', at('cert.key'))
    openssl('req', '-new', '-key', at('cert.key'), '-subj', subject, '-out', at('cert.csr'))
    // -CAserial in the scratch directory: the cluster's pki directory is not written to
    // (the CA serial file is created there by -CAcreateserial otherwise)
    openssl(
      'x509',
      '-req',
      '-in',
      at('cert.csr'),
      '-CA',
      path.join(pki.dir, 'ca.crt'),
      '-CAkey',
      path.join(pki.dir, 'ca.key'),
      '-CAserial',
      at('ca.srl'),
      '-CAcreateserial',
      '-out',
      at('cert.crt'),
      '-days',
      '2',
      '-extfile',
      at('cert.ext')
    )
    return { cert: readFileSync(at('cert.crt')), key: readFileSync(at('cert.key')) }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

function statusBody(status: number, message: string): string {
  return JSON.stringify({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason: status === 429 ? 'TooManyRequests' : 'InternalError',
    code: status
  })
}

/** A kubeconfig with everything embedded: one cluster, one client-certificate user, one context. */
export function certKubeconfig(
  server: string,
  ca: Buffer,
  user: { name: string; cert: Buffer; key: Buffer }
): string {
  const b64 = (data: Buffer): string => data.toString('base64')
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: test',
    '  cluster:',
    `    server: ${server}`,
    `    certificate-authority-data: ${b64(ca)}`,
    'users:',
    `- name: ${user.name}`,
    '  user:',
    `    client-certificate-data: ${b64(user.cert)}`,
    `    client-key-data: ${b64(user.key)}`,
    'contexts:',
    '- name: test',
    `  context: {cluster: test, user: ${user.name}}`,
    'current-context: test',
    ''
  ].join('\n')
}

export async function startFaultProxy(env: ClusterEnv, rule?: FaultRule): Promise<FaultProxy> {
  const pki = clusterPki(env)
  const serving = signedByClusterCa(
    pki,
    '/CN=route-gate-fault-proxy',
    'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n'
  )
  const upstream = new URL(env.apiServer)
  const agent = new https.Agent({
    ca: pki.ca,
    cert: pki.adminCert,
    key: pki.adminKey,
    keepAlive: true
  })
  let current = rule
  let count = 0
  const exchanges: RecordedExchange[] = []
  const sockets = new Set<Socket>()

  const forward = (
    request: http.IncomingMessage,
    response: http.ServerResponse,
    record: RecordedExchange,
    after?: (upstreamResponse: http.IncomingMessage) => void
  ): void => {
    const upstreamRequest = https.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: request.method,
        path: request.url,
        headers: { ...request.headers, host: upstream.host },
        agent
      },
      (upstreamResponse) => {
        record.status = upstreamResponse.statusCode
        response.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.headers)
        response.flushHeaders()
        if (record.watch) {
          upstreamResponse.on('data', (chunk: Buffer) => {
            if (/"code":\s*410/.test(chunk.toString())) record.goneEvent = true
          })
        }
        if (after) after(upstreamResponse)
        else upstreamResponse.pipe(response)
      }
    )
    upstreamRequest.on('error', () => response.socket?.destroy())
    response.on('close', () => upstreamRequest.destroy())
    request.pipe(upstreamRequest)
  }

  const server = https.createServer(
    { cert: serving.cert, key: serving.key },
    (request, response) => {
      const url = new URL(request.url ?? '/', 'https://proxy')
      const seen: ProxiedRequest = {
        method: request.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        watch: url.searchParams.get('watch') === 'true',
        index: ++count,
        at: Date.now()
      }
      const action = current?.(seen) ?? { kind: 'pass' }
      const record: RecordedExchange = { ...seen, action: action.kind, goneEvent: false }
      exchanges.push(record)
      switch (action.kind) {
        case 'pass':
          forward(request, response, record)
          return
        case 'reset':
          // the TCP socket under the TLS one: only it can send a RST
          ;(request.socket as Socket & { _parent: Socket })._parent.resetAndDestroy()
          return
        case 'status': {
          record.status = action.status
          const headers: Record<string, string> = { 'Content-Type': 'application/json' }
          if (action.retryAfterSeconds !== undefined) {
            headers['Retry-After'] = String(action.retryAfterSeconds)
          }
          response.writeHead(action.status, headers)
          response.end(statusBody(action.status, action.message ?? `injected ${action.status}`))
          return
        }
        case 'delay':
          setTimeout(() => {
            if (!response.destroyed) forward(request, response, record)
          }, action.ms)
          return
        case 'cut':
          forward(request, response, record, (upstreamResponse) => {
            upstreamResponse.pipe(response)
            setTimeout(() => {
              upstreamResponse.destroy()
              request.socket.destroy()
            }, action.afterMs)
          })
          return
        case 'silence':
          forward(request, response, record, (upstreamResponse) => {
            // drained, never written: the client sees an open, silent stream
            upstreamResponse.resume()
          })
      }
    }
  )
  server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  const { port } = server.address() as AddressInfo
  const url = `https://127.0.0.1:${port}`
  return {
    url,
    kubeconfig: certKubeconfig(url, pki.ca, {
      name: 'admin',
      cert: pki.adminCert,
      key: pki.adminKey
    }),
    exchanges,
    setRule: (next) => (current = next),
    clear: () => exchanges.splice(0),
    close: async () => {
      for (const socket of sockets) socket.destroy()
      agent.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}

// A loopback API server stand-in that records what each client sent (its TLS server name, client
// certificate and headers) and answers every request 403, for holding route-gate's kubeconfig
// resolution against kubectl's. Its own PKI is made with openssl: a CA, a server certificate for
// 127.0.0.1 and api.internal, a client certificate, and a second CA that signed neither.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import type { AddressInfo, Socket } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import type { TLSSocket } from 'node:tls'

export interface Pem {
  cert: Buffer
  key: Buffer
}

export interface TestPki {
  ca: Buffer
  otherCa: Buffer
  server: Pem
  client: Pem
}

export function makePki(): TestPki {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'route-gate-recording-pki-'))
  const at = (file: string): string => path.join(dir, file)
  const openssl = (...args: string[]): void => {
    execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] })
  }
  const key = (name: string): void =>
    openssl('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', at(`${name}.key`))
  const ca = (name: string): void => {
    key(name)
    openssl(
      'req',
      '-x509',
      '-new',
      '-key',
      at(`${name}.key`),
      '-subj',
      `/CN=${name}`,
      '-days',
      '2',
      '-out',
      at(`${name}.crt`)
    )
  }
  const signed = (name: string, extensions: string): Pem => {
    key(name)
    writeFileSync(at(`${name}.ext`), extensions)
    openssl(
      'req',
      '-new',
      '-key',
      at(`${name}.key`),
      '-subj',
      `/CN=${name}`,
      '-out',
      at(`${name}.csr`)
    )
    openssl(
      'x509',
      '-req',
      '-in',
      at(`${name}.csr`),
      '-CA',
      at('ca.crt'),
      '-CAkey',
      at('ca.key'),
      '-CAcreateserial',
      '-days',
      '2',
      '-extfile',
      at(`${name}.ext`),
      '-out',
      at(`${name}.crt`)
    )
    return { cert: readFileSync(at(`${name}.crt`)), key: readFileSync(at(`${name}.key`)) }
  }
  try {
    ca('ca')
    ca('other-ca')
    return {
      ca: readFileSync(at('ca.crt')),
      otherCa: readFileSync(at('other-ca.crt')),
      server: signed(
        'server',
        'subjectAltName=IP:127.0.0.1,DNS:api.internal\nextendedKeyUsage=serverAuth\n'
      ),
      client: signed('client', 'extendedKeyUsage=clientAuth\n')
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * An oidc id-token whose exp is 2100-01-01: client-go's and client-node's oidc providers send it as
 * it is, without a refresh (neither checks the signature).
 */
export function unexpiredIdToken(): string {
  const segment = (value: unknown): string =>
    Buffer.from(JSON.stringify(value)).toString('base64url')
  return `${segment({ alg: 'RS256' })}.${segment({ exp: 4102444800 })}.c2lnbmF0dXJl`
}

let made: TestPki | undefined

/** One PKI for the whole test process: openssl runs once. */
export function testPki(): TestPki {
  return (made ??= makePki())
}

/** What one request carried, as the server saw it. */
export interface Seen {
  tls: boolean
  /** the path before the API's own (/api, /apis, /version): the server's path prefix */
  prefix: string
  /** the TLS server name the client asked for (SNI), if any */
  serverName?: string
  /** the SHA-256 fingerprint of the client certificate, if one was sent */
  clientCert?: string
  authorization?: string
  /** every Impersonate-* header, its name lower-case, its values in order */
  impersonate: Record<string, string[]>
}

export interface RecordingServer {
  https: string
  http: string
  /** requests seen since the last call, and forgets them */
  take(): Seen[]
  close(): Promise<void>
}

function impersonation(request: http.IncomingMessage): Record<string, string[]> {
  const found: Record<string, string[]> = {}
  for (let i = 0; i < request.rawHeaders.length; i += 2) {
    const name = (request.rawHeaders[i] ?? '').toLowerCase()
    if (name.startsWith('impersonate-')) (found[name] ??= []).push(request.rawHeaders[i + 1] ?? '')
  }
  return found
}

async function listen(server: http.Server, sockets: Set<Socket>): Promise<number> {
  server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return (server.address() as AddressInfo).port
}

export async function startRecordingServer(pki: TestPki): Promise<RecordingServer> {
  let seen: Seen[] = []
  const answer = (request: http.IncomingMessage, response: http.ServerResponse): void => {
    const socket = request.socket as TLSSocket
    const tls = 'encrypted' in socket && socket.encrypted
    const peer = tls ? socket.getPeerCertificate() : undefined
    const servername = tls
      ? (socket as TLSSocket & { servername?: string | false }).servername
      : undefined
    const authorization = request.headers.authorization
    const path = new URL(request.url ?? '/', 'http://x').pathname
    seen.push({
      tls,
      prefix: path.replace(/\/(?:api|apis|version)(?:\/.*)?$/, ''),
      ...(typeof servername === 'string' ? { serverName: servername } : {}),
      ...(peer?.fingerprint256 ? { clientCert: peer.fingerprint256 } : {}),
      ...(authorization === undefined ? {} : { authorization }),
      impersonate: impersonation(request)
    })
    request.resume()
    response.writeHead(403, { 'Content-Type': 'application/json' })
    response.end(
      JSON.stringify({
        kind: 'Status',
        apiVersion: 'v1',
        status: 'Failure',
        reason: 'Forbidden',
        code: 403,
        message: 'recorded'
      })
    )
  }
  const sockets = new Set<Socket>()
  const secure = https.createServer(
    { cert: pki.server.cert, key: pki.server.key, requestCert: true, rejectUnauthorized: false },
    answer
  )
  const plain = http.createServer(answer)
  const [securePort, plainPort] = [await listen(secure, sockets), await listen(plain, sockets)]
  return {
    https: `https://127.0.0.1:${securePort}`,
    http: `http://127.0.0.1:${plainPort}`,
    take: () => {
      const taken = seen
      seen = []
      return taken
    },
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await Promise.all([secure, plain].map((s) => new Promise((resolve) => s.close(resolve))))
    }
  }
}

// request.ts's transport: requests share keep-alive connections (client-node's fetch transport opened
// a new TLS connection for every request), the one-request timeout still reads as one, and what the
// kubeconfig says about TLS and credentials reaches the wire without client-node (credentials.ts).
import { mkdtempSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import net from 'node:net'
import { tmpdir } from 'node:os'
import type { TLSSocket } from 'node:tls'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { authenticationFor, TOKEN_FILE_REREAD_MS } from '../../../src/cluster/credentials.ts'
import { describeFault } from '../../../src/cluster/errors.ts'
import { loadKubeConfig } from '../../../src/cluster/kubeconfig.ts'
import { ApiRequester } from '../../../src/cluster/request.ts'
import {
  authenticationOf,
  FakeApiServer,
  sendJson,
  tokenKubeconfig
} from '../../helpers/fake-apiserver.ts'
import { makeTestPki } from '../../helpers/probe-servers.ts'

const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()))
})

/** A server answering `{}` (or never, for /hang) that counts the connections opened to it. */
async function countingServer(): Promise<{ url: string; connections: () => number }> {
  let connections = 0
  const server = http.createServer((request, response) => {
    if (request.url === '/hang') return
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}')
  })
  server.on('connection', () => connections++)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  closers.push(() => {
    server.closeAllConnections()
    return new Promise((resolve) => server.close(() => resolve()))
  })
  const { port } = server.address() as net.AddressInfo
  return { url: `http://127.0.0.1:${port}`, connections: () => connections }
}

async function requester(server: string, timeoutMs = 2_000): Promise<ApiRequester> {
  const closing = new AbortController()
  closers.push(() => Promise.resolve(closing.abort()))
  const authenticate = await authenticationOf(tokenKubeconfig({ server }))
  return new ApiRequester(authenticate, server, timeoutMs, closing.signal)
}

describe('the transport', () => {
  it('sends one request after another on one keep-alive connection', async () => {
    const server = await countingServer()
    const api = await requester(server.url)
    for (let i = 0; i < 3; i++) await api.request('GET', '/version')
    expect(server.connections()).toBe(1)
  })

  it('a request past its timeout fails as "no answer in time", a transient fault', async () => {
    const server = await countingServer()
    const error = await (await requester(server.url, 200)).request('GET', '/hang').then(
      () => undefined,
      (e: unknown) => e
    )
    expect(describeFault(error)).toMatchObject({ message: 'no answer in time', transient: true })
  })
})

/** The headers of one GET /version a requester of `kubeconfig` sends to `fake`. */
async function sentHeaders(
  fake: FakeApiServer,
  kubeconfig: string,
  timeoutMs = 2_000
): Promise<http.IncomingHttpHeaders> {
  const closing = new AbortController()
  closers.push(() => Promise.resolve(closing.abort()))
  const api = new ApiRequester(
    await authenticationOf(kubeconfig),
    fake.url,
    timeoutMs,
    closing.signal
  )
  await api.request('GET', '/version')
  return fake.requestsTo('GET', '/version').at(-1)?.headers ?? {}
}

describe('credentials on the wire, without client-node', () => {
  let fake: FakeApiServer
  beforeEach(async () => {
    fake = await FakeApiServer.start()
    fake.on('GET', '/version', (_req, res) => sendJson(res, 200, { major: '1' }))
    closers.push(() => fake.close())
  })
  const withUser = (user: string[]): string =>
    fake.kubeconfig().replace('    token: fake-token-123\n', user.map((l) => `    ${l}\n`).join(''))

  it('a bearer token, basic auth and Impersonate-User', async () => {
    expect(
      (await sentHeaders(fake, fake.kubeconfig({ token: 'bearer-abc-123' }))).authorization
    ).toBe('Bearer bearer-abc-123')
    const basic = await sentHeaders(
      fake,
      withUser(['username: admin', 'password: hunter22', 'as: someone'])
    )
    expect(basic.authorization).toBe(`Basic ${Buffer.from('admin:hunter22').toString('base64')}`)
    expect(basic['impersonate-user']).toBe('someone')
  })

  it("client-go's impersonation headers: uid, a header per group and extra value, keys escaped", async () => {
    const sent = await sentHeaders(
      fake,
      withUser([
        'token: bearer-abc-123',
        'as: jane',
        'as-uid: uid-42',
        'as-groups: [developers, ops]',
        'as-user-extra: {scopes: [view, edit], "reason/why": [audit]}'
      ])
    )
    const raw = fake.requestsTo('GET', '/version').at(-1)?.rawHeaders ?? []
    const values = (name: string): string[] =>
      raw.flatMap((value, i) => (i % 2 === 1 && raw[i - 1]?.toLowerCase() === name ? [value] : []))
    expect(sent['impersonate-user']).toBe('jane')
    expect(sent['impersonate-uid']).toBe('uid-42')
    expect(values('impersonate-group')).toEqual(['developers', 'ops'])
    expect(values('impersonate-extra-scopes')).toEqual(['view', 'edit'])
    expect(values('impersonate-extra-reason%2fwhy')).toEqual(['audit'])
  })

  it('a token and a tokenFile: the file, as client-go; the token while the file cannot be read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'route-gate-token-'))
    writeFileSync(join(dir, 'token'), 'file-token-abc\n')
    const both = withUser(['token: inline-token-abc', `tokenFile: ${join(dir, 'token')}`])
    expect((await sentHeaders(fake, both)).authorization).toBe('Bearer file-token-abc')
    const gone = withUser(['token: inline-token-abc', `tokenFile: ${join(dir, 'gone')}`])
    expect((await sentHeaders(fake, gone)).authorization).toBe('Bearer inline-token-abc')
  })

  it('a token file, re-read once a minute has passed, its token masked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'route-gate-token-'))
    const file = join(dir, 'token')
    writeFileSync(file, 'first-file-token\n')
    const masked: string[] = []
    const loaded = await loadKubeConfig({
      kubeconfig: withUser([`tokenFile: ${file}`]),
      env: {},
      mask: () => {}
    })
    const api = new ApiRequester(
      authenticationFor(loaded, 'the cluster', (s) => masked.push(s)),
      fake.url,
      2_000
    )
    const sent = async (): Promise<unknown> => {
      await api.request('GET', '/version')
      return fake.requestsTo('GET', '/version').at(-1)?.headers.authorization
    }
    expect(await sent()).toBe('Bearer first-file-token')
    writeFileSync(file, 'rotated-file-token')
    expect(await sent()).toBe('Bearer first-file-token')
    const now = Date.now()
    vi.spyOn(Date, 'now').mockReturnValue(now + TOKEN_FILE_REREAD_MS + 1_000)
    try {
      expect(await sent()).toBe('Bearer rotated-file-token')
    } finally {
      vi.restoreAllMocks()
    }
    expect(masked).toEqual(['first-file-token', 'rotated-file-token'])
  })

  it('an exec plugin whose token is masked', async () => {
    const credential = JSON.stringify({
      apiVersion: 'client.authentication.k8s.io/v1',
      kind: 'ExecCredential',
      status: { token: 'exec-token-4411' }
    })
    const kubeconfig = withUser([
      'exec:',
      '  apiVersion: client.authentication.k8s.io/v1',
      '  command: /bin/sh',
      '  interactiveMode: Never',
      `  args: ["-c", ${JSON.stringify(`echo '${credential}'`)}]`
    ])
    expect((await sentHeaders(fake, kubeconfig)).authorization).toBe('Bearer exec-token-4411')
  })

  it("a proxy-url: requests tunnel through the proxy, on client-node's agent", async () => {
    const tunnels: string[] = []
    const proxy = http.createServer((_request, response) => response.writeHead(405).end())
    // a forward proxy as hpagent uses one: CONNECT host:port, then bytes both ways
    const sockets: net.Socket[] = []
    proxy.on('connect', (request: http.IncomingMessage, client: net.Socket) => {
      tunnels.push(String(request.url))
      sockets.push(client)
      const [host, port] = String(request.url).split(':')
      const upstream = net.connect(Number(port), host, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
        upstream.pipe(client).pipe(upstream)
      })
      upstream.on('error', () => client.destroy())
      client.on('error', () => upstream.destroy())
    })
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    closers.push(() => {
      // a tunnel is the proxy's no longer: the keep-alive TLS connection in it stays open
      for (const socket of sockets) socket.destroy()
      proxy.closeAllConnections()
      return new Promise((resolve) => proxy.close(() => resolve()))
    })
    const port = (proxy.address() as net.AddressInfo).port
    const kubeconfig = tokenKubeconfig({
      server: fake.url,
      cluster: ['insecure-skip-tls-verify: true', `proxy-url: http://127.0.0.1:${port}`]
    })
    // the first request loads client-node's proxy agent, which takes seconds on a loaded machine:
    // what is tested is the tunnel, not how long the load takes
    expect((await sentHeaders(fake, kubeconfig, 15_000)).authorization).toBe(
      'Bearer fake-token-123'
    )
    expect(tunnels).toEqual([new URL(fake.url).host])
  })

  it('plain http://: no credentials and no TLS, as kubectl; impersonation still', async () => {
    const seen: http.IncomingHttpHeaders[] = []
    const plain = http.createServer((request, response) => {
      seen.push(request.headers)
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve))
    closers.push(() => new Promise((resolve) => plain.close(() => resolve())))
    const server = `http://127.0.0.1:${(plain.address() as net.AddressInfo).port}`
    const kubeconfig = tokenKubeconfig({ server, cluster: [] }).replace(
      '    token: fake-token-123\n',
      '    token: fake-token-123\n    as: someone\n'
    )
    const closing = new AbortController()
    closers.push(() => Promise.resolve(closing.abort()))
    const api = new ApiRequester(await authenticationOf(kubeconfig), server, 2_000, closing.signal)
    await api.request('GET', '/version')
    expect(seen).toHaveLength(1)
    expect(seen[0]?.authorization).toBeUndefined()
    expect(seen[0]?.['impersonate-user']).toBe('someone')
  })
})

describe('TLS from the kubeconfig', () => {
  it('CA and client certificate and key files relative to the kubeconfig, tls-server-name', async () => {
    const server = makeTestPki(['api.internal'])
    const client = makeTestPki(['route-gate-client'])
    const peers: string[] = []
    const tls = https.createServer(
      { cert: server.cert, key: server.key, requestCert: true, rejectUnauthorized: false },
      (request, response) => {
        const socket = request.socket as TLSSocket
        peers.push(
          `${String(socket.getPeerCertificate().subject?.CN)} ${String(socket.servername)}`
        )
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}')
      }
    )
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve))
    closers.push(() => new Promise((resolve) => tls.close(() => resolve())))
    const url = `https://127.0.0.1:${(tls.address() as net.AddressInfo).port}`
    const dir = mkdtempSync(join(tmpdir(), 'route-gate-tls-'))
    writeFileSync(join(dir, 'ca.crt'), server.ca)
    writeFileSync(join(dir, 'client.crt'), client.cert)
    writeFileSync(join(dir, 'client.key'), client.key)
    const kubeconfig = tokenKubeconfig({
      server: url,
      cluster: ['certificate-authority: ca.crt', 'tls-server-name: api.internal']
    }).replace(
      '    token: fake-token-123\n',
      '    client-certificate: client.crt\n    client-key: client.key\n'
    )
    writeFileSync(join(dir, 'config'), kubeconfig)
    const loaded = await loadKubeConfig({
      env: { KUBECONFIG: join(dir, 'config') },
      mask: () => {}
    })
    const closing = new AbortController()
    closers.push(() => Promise.resolve(closing.abort()))
    const api = new ApiRequester(
      authenticationFor(loaded, url, () => {}),
      url,
      2_000,
      closing.signal
    )
    await api.request('GET', '/version')
    await api.request('GET', '/version')
    expect(peers).toEqual(['route-gate-client api.internal', 'route-gate-client api.internal'])
    // certificate data in the kubeconfig itself works the same
    const inline = tokenKubeconfig({
      server: url,
      cluster: [
        `certificate-authority-data: ${Buffer.from(server.ca).toString('base64')}`,
        'tls-server-name: api.internal'
      ]
    }).replace(
      '    token: fake-token-123\n',
      `    client-certificate-data: ${Buffer.from(client.cert).toString('base64')}\n    client-key-data: ${Buffer.from(client.key).toString('base64')}\n`
    )
    await new ApiRequester(await authenticationOf(inline), url, 2_000, closing.signal).request(
      'GET',
      '/version'
    )
    expect(peers).toHaveLength(3)
    expect(peers[2]).toBe('route-gate-client api.internal')
  })
})

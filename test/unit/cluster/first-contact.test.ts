// Before the API server has answered once, trouble ends the run within seconds instead of being
// retried until the deadline; after a first answer, the same transport faults are retried as before.
// Everything here is on loopback; the DNS case injects the resolver's ENOTFOUND, because a real
// lookup of any name would be asked of this machine's resolver (test/integration/fast-failure.test.ts
// does it for real, inside a network namespace with its own DNS server).
import net from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { describeFault } from '../../../src/cluster/errors.ts'
import type { Authenticate } from '../../../src/cluster/credentials.ts'
import { ApiRequester } from '../../../src/cluster/request.ts'
import { authenticationOf, tokenKubeconfig } from '../../helpers/fake-apiserver.ts'
import { withRetry } from '../../../src/cluster/retry.ts'
import { ClusterError } from '../../../src/runtime/errors.ts'
import {
  closedPort,
  makeTestPki,
  startServer,
  type TestServer
} from '../../helpers/probe-servers.ts'

/** the first-contact window, shortened from 3 s */
const WINDOW_MS = 300
/** enough retries that only the first-contact rule can end a fault inside the window */
const RETRY = { retries: 50, minTimeoutMs: 20, maxTimeoutMs: 50, maxRetryTimeMs: 10_000 }

async function requester(
  server: string,
  cluster?: string[],
  authenticate?: Authenticate
): Promise<ApiRequester> {
  return new ApiRequester(
    authenticate ?? (await authenticationOf(tokenKubeconfig({ server, context: 'ci', cluster }))),
    server,
    2_000,
    undefined,
    undefined,
    `${server} (context ci)`,
    WINDOW_MS
  )
}

/** GET /version with the retry policy; how many attempts it took, and how it ended */
async function get(api: ApiRequester): Promise<{ attempts: number; error?: unknown }> {
  let attempts = 0
  try {
    await withRetry(() => {
      attempts++
      return api.request('GET', '/version')
    }, RETRY)
    return { attempts }
  } catch (error) {
    return { attempts, error }
  }
}

const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()))
})

async function listen(server: net.Server, port = 0): Promise<number> {
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  closers.push(() => new Promise((resolve) => server.close(() => resolve())))
  return (server.address() as net.AddressInfo).port
}

describe('the first contact with the API server', () => {
  it('a refused connection: retried for the window, then one ClusterError naming server and context', async () => {
    const port = await closedPort()
    const { attempts, error } = await get(await requester(`https://127.0.0.1:${port}`))
    expect(error).toBeInstanceOf(ClusterError)
    expect((error as Error).message).toBe(
      `cannot reach https://127.0.0.1:${port} (context ci): connection refused (ECONNREFUSED) (still, after 0.3 s of retries); nothing accepts connections there: check that the API server runs and that the kubeconfig's server address and port are right`
    )
    expect(attempts).toBeGreaterThan(1)
  })

  it('a connection reset at once: retried for the window, then says the connection was dropped', async () => {
    const port = await listen(net.createServer((socket) => socket.resetAndDestroy()))
    const { attempts, error } = await get(await requester(`https://127.0.0.1:${port}`))
    expect(error).toBeInstanceOf(ClusterError)
    expect((error as Error).message).toMatch(
      new RegExp(
        `^cannot reach https://127\\.0\\.0\\.1:${port} \\(context ci\\): .*\\(still, after 0\\.3 s of retries\\); the connection was dropped: check for a proxy or firewall`
      )
    )
    expect(attempts).toBeGreaterThan(1)
  })

  it('a name that does not resolve (ENOTFOUND): one attempt, never retried', async () => {
    // what Node's HTTP client fails with when getaddrinfo answers NXDOMAIN
    const api = await requester('https://api.route-gate-test.invalid:6443', undefined, () =>
      Promise.reject(
        Object.assign(new Error('getaddrinfo ENOTFOUND api.route-gate-test.invalid'), {
          code: 'ENOTFOUND',
          syscall: 'getaddrinfo'
        })
      )
    )
    const { attempts, error } = await get(api)
    expect(attempts).toBe(1)
    expect((error as Error).message).toBe(
      "cannot reach https://api.route-gate-test.invalid:6443 (context ci): host not found (ENOTFOUND); the host name api.route-gate-test.invalid does not resolve: check the server address in the kubeconfig (and this runner's DNS)"
    )
  })

  it('after a first answer, refused connections are retried until the server is back', async () => {
    const answer = (socket: net.Socket): void => {
      socket.once('data', () =>
        socket.end(
          'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}'
        )
      )
    }
    const first = net.createServer(answer)
    const port = await listen(first)
    const api = await requester(`http://127.0.0.1:${port}`)
    expect(await get(api)).toEqual({ attempts: 1 })
    await new Promise<void>((resolve) => first.close(() => resolve()))
    // back after twice the first-contact window: only a retry that outlasts it succeeds
    setTimeout(() => void listen(net.createServer(answer), port), 2 * WINDOW_MS)
    const again = await get(api)
    expect(again.error).toBeUndefined()
    expect(again.attempts).toBeGreaterThan(1)
  })
})

describe('TLS verification at the first contact: one attempt, a fault that names the check', () => {
  const servers: TestServer[] = []
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()))
  })

  async function tlsServer(names: string[]): Promise<{ port: number; ca: string }> {
    const pki = makeTestPki(names)
    const server = await startServer((_req, res) => res.end('{}'), pki)
    servers.push(server)
    return { port: server.port, ca: Buffer.from(pki.ca).toString('base64') }
  }

  it.each([
    ['a certificate no CA the kubeconfig names signed', ['localhost'], 'other CA'],
    ['a certificate for another host name', ['api.elsewhere.example'], 'own CA'],
    ['no certificate-authority at all (the system CAs)', ['localhost'], 'none']
  ])('%s', async (_name, names, trust) => {
    const { port, ca } = await tlsServer(names)
    const other = Buffer.from(makeTestPki(['localhost']).ca).toString('base64')
    const cluster =
      trust === 'none' ? [] : [`certificate-authority-data: ${trust === 'own CA' ? ca : other}`]
    const { attempts, error } = await get(await requester(`https://localhost:${port}`, cluster))
    expect(attempts).toBe(1)
    const fault = describeFault(error)
    expect(fault.transient).toBe(false)
    expect(fault.message).toMatch(
      /^TLS certificate rejected \(\w+\): check the kubeconfig's certificate-authority and that the server's certificate covers its address$/
    )
    expect(servers[0]?.seen).toHaveLength(0)
  })
})

// request.ts's transport: requests share keep-alive connections (client-node's fetch transport opened
// a new TLS connection for every request), and the one-request timeout still reads as one.
import http from 'node:http'
import type net from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { describeFault } from '../../../src/cluster/errors.ts'
import { ApiRequester } from '../../../src/cluster/request.ts'
import { authenticationOf, tokenKubeconfig } from '../../helpers/fake-apiserver.ts'

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

// A kubeconfig proxy-url's proxy that refuses authentication (407) is named in the one line the run
// ends with, without its userinfo, instead of the API server being blamed for it. The proxy here is
// a loopback server answering 407 to a tunnel's CONNECT and to any request it is sent.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { connect } from '../../../src/cluster/connect.ts'
import { ClusterError } from '../../../src/runtime/errors.ts'
import { FAST_TUNING } from '../../helpers/fake-apiserver.ts'

const PROXY_PASSWORD = 'proxy-pw-9d2f61'
const REFUSAL = [
  'HTTP/1.1 407 Proxy Authentication Required',
  'Proxy-Authenticate: Basic realm="proxy"',
  'Content-Length: 0',
  '',
  ''
].join('\r\n')

function kubeconfig(server: string, proxy: string): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    `clusters: [{name: c, cluster: {server: "${server}", insecure-skip-tls-verify: true, proxy-url: "${proxy}"}}]`,
    'users: [{name: ci, user: {token: tok-5e1a9c}}]',
    'contexts: [{name: c, context: {cluster: c, user: ci}}]',
    'current-context: c',
    ''
  ].join('\n')
}

describe('a proxy-url that answers 407', () => {
  let proxy: http.Server
  let port: number
  let asked: number
  beforeEach(async () => {
    asked = 0
    proxy = http.createServer((_request, response) => {
      asked++
      response.writeHead(407, { 'Proxy-Authenticate': 'Basic realm="proxy"' })
      response.end()
    })
    proxy.on('connect', (_request, socket: import('node:net').Socket) => {
      asked++
      socket.end(REFUSAL)
    })
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    port = (proxy.address() as AddressInfo).port
  })
  afterEach(async () => {
    proxy.closeAllConnections()
    await new Promise((resolve) => proxy.close(resolve))
  })

  for (const server of ['https://127.0.0.1:2', 'http://127.0.0.1:2']) {
    it(`${server}: one ClusterError naming the proxy, at once`, async () => {
      const client = await connect({
        kubeconfig: kubeconfig(server, `http://pu:${PROXY_PASSWORD}@127.0.0.1:${port}`),
        env: {},
        mask: () => {},
        tuning: FAST_TUNING
      })
      const error = await client.checkNamespaces(['shop']).then(
        () => undefined,
        (e: unknown) => e as Error
      )
      client.close()
      expect(error).toBeInstanceOf(ClusterError)
      expect(error?.message).toBe(
        `the proxy http://127.0.0.1:${port} refused authentication (HTTP 407 Proxy Authentication Required) on the way to ${server} (context c): check the user and password in the kubeconfig's proxy-url`
      )
      expect(error?.message).not.toContain(PROXY_PASSWORD)
      // at once: a refusal is final, so the proxy is asked once and never again until the deadline
      expect(asked).toBe(1)
    })
  }
})

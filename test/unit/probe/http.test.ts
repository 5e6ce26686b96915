// The probe's HTTP client against loopback servers started here: Host and SNI, no redirects followed,
// TLS verified by default, bounded time and body.
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sendProbe } from '../../../src/probe/transport/http.ts'
import type { ProbeRequest } from '../../../src/probe/rules/plan-requests.ts'
import { parseCidr } from '../../../src/probe/rules/target-guard.ts'
import {
  closedPort,
  makeTestPki,
  probeRequest,
  startServer,
  type TestPki,
  type TestServer
} from '../../helpers/probe-servers.ts'

const request = (port: number, extra: Partial<ProbeRequest> = {}): ProbeRequest =>
  probeRequest(port, { path: '/cart?q=1', headers: { 'x-version': '2' }, ...extra })

const options = { timeoutMs: 2000, skipTlsVerify: false, policy: { allowedCidrs: [] } }
const HTTP_MODULE = fileURLToPath(new URL('../../../src/probe/transport/http.ts', import.meta.url))

describe('sendProbe over HTTP', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer((req, res) => {
      if (req.url === '/redirect') {
        res.writeHead(302, { location: 'http://127.0.0.2:1/elsewhere' })
        res.end()
      } else if (req.url === '/big') {
        res.writeHead(200, { 'content-type': 'text/plain' })
        res.end('x'.repeat(100_000))
      } else if (req.url === '/hang') {
        // never answers
      } else {
        res.writeHead(200, { 'content-type': 'text/plain', server: 'backend' })
        res.end('hello')
      }
    })
  })
  afterAll(() => server.close())

  it('sends the Route hostname as Host, with the rule’s method, path, query and headers', async () => {
    const answer = await sendProbe(request(server.port, { method: 'POST' }), options)
    expect(answer).toMatchObject({ status: 200, body: 'hello' })
    expect(answer.headers['content-type']).toBe('text/plain')
    expect(server.seen.at(-1)).toMatchObject({
      method: 'POST',
      url: '/cart?q=1',
      host: 'shop.example.com'
    })
    expect(server.seen.at(-1)?.headers['x-version']).toBe('2')
    expect(server.seen.at(-1)?.headers['user-agent']).toMatch(
      /^route-gate\/.* \(traffic verification\)$/
    )
  })

  it('sends exactly Host, User-Agent, Accept and the Route’s own header matches: no credential, nothing of the environment', async () => {
    const saved = { ...process.env }
    process.env.KUBECONFIG = '/secret/kubeconfig'
    process.env.GITHUB_TOKEN = 'ghs_secret'
    process.env.HTTP_PROXY = 'http://127.0.0.1:1'
    try {
      await sendProbe(request(server.port), options)
    } finally {
      process.env = saved
    }
    expect(server.seen.at(-1)?.headers).toEqual({
      host: 'shop.example.com',
      'user-agent': expect.stringMatching(/^route-gate\/\S+ \(traffic verification\)$/),
      accept: '*/*',
      'x-version': '2',
      connection: 'close'
    })
  })

  it('goes straight to the Gateway even when the runner routes Node through a proxy (NODE_USE_ENV_PROXY)', async () => {
    // Node reads the proxy settings at start-up, so the probe runs in a process of its own
    const proxy = await startServer((_req, res) => res.end('proxied'))
    try {
      const before = server.seen.length
      const script = `import { sendProbe } from ${JSON.stringify(HTTP_MODULE)}
const answer = await sendProbe(JSON.parse(process.argv[1]), ${JSON.stringify(options)})
process.stdout.write(JSON.stringify(answer))`
      const proxyUrl = `http://runner:s3cret@127.0.0.1:${proxy.port}`
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--input-type=module', '-e', script, JSON.stringify(request(server.port))],
        {
          env: {
            ...process.env,
            NODE_USE_ENV_PROXY: '1',
            HTTP_PROXY: proxyUrl,
            HTTPS_PROXY: proxyUrl,
            NO_PROXY: ''
          },
          timeout: 30_000
        }
      )
      expect(JSON.parse(stdout)).toMatchObject({ status: 200, body: 'hello' })
      expect(proxy.seen).toEqual([])
      expect(server.seen.length).toBe(before + 1)
      expect(server.seen.at(-1)?.headers).not.toHaveProperty('proxy-authorization')
    } finally {
      await proxy.close()
    }
  })

  it('connects to the address the guard judged, whatever the name resolves to later', async () => {
    const answers = ['127.0.0.1', '169.254.169.254']
    const lookup = () => Promise.resolve({ address: answers.shift() ?? '169.254.169.254' })
    const before = server.seen.length
    const answer = await sendProbe(request(server.port, { address: 'gw.example.com' }), {
      ...options,
      lookup
    })
    expect(answer.status).toBe(200)
    expect(server.seen.length).toBe(before + 1)
    expect(answers).toEqual(['169.254.169.254'])
  })

  it('refuses a name that resolves to a link-local or metadata address, sending nothing', async () => {
    const before = server.seen.length
    const refused = await sendProbe(request(server.port, { address: 'gw.example.com' }), {
      ...options,
      lookup: () => Promise.resolve({ address: '169.254.169.254' })
    })
    expect(refused).toEqual({
      headers: {},
      body: '',
      durationMs: 0,
      error: {
        code: 'ROUTE_GATE_TARGET_REFUSED',
        message:
          'gw.example.com resolves to 169.254.169.254, which is a cloud metadata service address'
      }
    })
    const outside = await sendProbe(request(server.port, { address: 'gw.example.com' }), {
      ...options,
      policy: { allowedCidrs: [parseCidr('10.0.0.0/8')!] },
      lookup: () => Promise.resolve({ address: '127.0.0.1' })
    })
    expect(outside.error?.message).toBe(
      'gw.example.com resolves to 127.0.0.1, which is outside traffic-allowed-cidrs (10.0.0.0/8)'
    )
    const literal = await sendProbe(request(server.port, { address: '169.254.3.4' }), options)
    expect(literal.error?.code).toBe('ROUTE_GATE_TARGET_REFUSED')
    expect(server.seen.length).toBe(before)
  })

  it('says when a name does not resolve', async () => {
    const answer = await sendProbe(request(server.port, { address: 'gw.example.com' }), {
      ...options,
      lookup: () =>
        Promise.reject(
          Object.assign(new Error('getaddrinfo ENOTFOUND gw.example.com'), {
            code: 'ENOTFOUND'
          })
        )
    })
    expect(answer.error).toEqual({
      code: 'ENOTFOUND',
      message: 'could not resolve gw.example.com: getaddrinfo ENOTFOUND gw.example.com'
    })
  })

  it('returns a redirect as the answer and never follows it', async () => {
    const before = server.seen.length
    const answer = await sendProbe(request(server.port, { path: '/redirect' }), options)
    expect(answer.status).toBe(302)
    expect(answer.headers.location).toBe('http://127.0.0.2:1/elsewhere')
    expect(server.seen.length).toBe(before + 1)
  })

  it('reads only the first 4 KiB of a body', async () => {
    const answer = await sendProbe(request(server.port, { path: '/big' }), options)
    expect(answer.status).toBe(200)
    expect(answer.body.length).toBe(4096)
  })

  it('gives up on a request after its timeout', async () => {
    const answer = await sendProbe(request(server.port, { path: '/hang' }), {
      ...options,
      timeoutMs: 150
    })
    expect(answer.error?.code).toBe('ETIMEDOUT')
    expect(answer.durationMs).toBeGreaterThanOrEqual(140)
  })

  it('reports a refused connection as an error, not an answer', async () => {
    const answer = await sendProbe(request(await closedPort()), options)
    expect(answer.status).toBeUndefined()
    expect(answer.error?.code).toBe('ECONNREFUSED')
  })
})

describe('sendProbe over HTTPS', () => {
  let pki: TestPki
  let server: TestServer
  beforeAll(async () => {
    pki = makeTestPki(['shop.example.com'])
    server = await startServer((_req, res) => {
      res.writeHead(200)
      res.end('secure')
    }, pki)
  })
  afterAll(() => server.close())

  const tls = (extra: Partial<ProbeRequest> = {}) =>
    request(server.port, { scheme: 'https', servername: 'shop.example.com', ...extra })

  it('sends SNI = hostname and trusts an extra CA', async () => {
    const answer = await sendProbe(tls(), { ...options, ca: pki.ca })
    expect(answer).toMatchObject({ status: 200, body: 'secure' })
    expect(server.seen.at(-1)?.servername).toBe('shop.example.com')
  })

  it('fails on a certificate from an unknown CA', async () => {
    const answer = await sendProbe(tls(), options)
    expect(answer.status).toBeUndefined()
    expect(answer.error?.code).toMatch(
      /UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED|UNABLE_TO_GET_ISSUER/
    )
  })

  it('fails on a certificate that does not cover the hostname, even with its CA', async () => {
    const answer = await sendProbe(
      tls({ host: 'other.example.com', servername: 'other.example.com' }),
      { ...options, ca: pki.ca }
    )
    expect(answer.error?.code).toBe('ERR_TLS_CERT_ALTNAME_INVALID')
  })

  it('skips verification only when asked, or for a no-route request', async () => {
    expect((await sendProbe(tls(), { ...options, skipTlsVerify: true })).status).toBe(200)
    expect((await sendProbe(tls({ verifyTls: false }), options)).status).toBe(200)
  })
})

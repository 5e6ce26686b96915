// Traffic verification end to end against loopback "data planes" started here: the rounds, the
// comparison with the no-route answer, and what the report says when a parent does not serve.
import { afterEach, describe, expect, it } from 'vitest'
import { setTimeout as sleep } from 'node:timers/promises'
import type { StatusRange } from '../../../src/probe/rules/answer.ts'
import { sendProbe } from '../../../src/probe/transport/http.ts'
import type { ListenerTarget, ProbeRequest } from '../../../src/probe/rules/plan-requests.ts'
import {
  REQUEST_TIMEOUT_MS,
  verifyTraffic,
  type ProbeTarget
} from '../../../src/probe/loop/rounds.ts'
import {
  closedPort,
  dataPlane,
  probeRequest,
  startServer,
  type Handler,
  type TestServer
} from '../../helpers/probe-servers.ts'

const servers: TestServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()))
})

async function serve(handler: Handler): Promise<TestServer> {
  const server = await startServer(handler)
  servers.push(server)
  return server
}

const request = probeRequest

function listener(port: number, requests: Partial<ProbeRequest>[] = [{}]): ListenerTarget {
  const noRoute = (s: string) =>
    request(port, {
      host: `route-gate-no-route-x${s}.invalid`,
      path: `/route-gate-no-route-x${s}`,
      verifyTls: false,
      rule: undefined
    })
  return {
    listener: 'web',
    requests: requests.map((r) => request(port, r)),
    noRoute: [noRoute('a'), noRoute('b')]
  }
}

function run(
  targets: ListenerTarget[],
  timeoutMs = 1500,
  expect?: StatusRange[],
  showBody = false,
  successes = 1
) {
  const lines: string[] = []
  const probe: ProbeTarget = {
    key: 'k',
    label: 'HTTPRoute shop/web → infra/edge',
    plan: { targets, skipped: [] }
  }
  const result = verifyTraffic([probe], {
    deadline: Date.now() + timeoutMs,
    now: Date.now,
    send: sendProbe,
    log: (line) => lines.push(line),
    sleep: (ms) => sleep(ms),
    skipTlsVerify: false,
    policy: { allowedCidrs: [] },
    showBody,
    successes,
    ...(expect && { expect })
  }).then((outcomes) => outcomes.get('k'))
  return { result, lines }
}

const ok: Handler = (_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html' })
  res.end('<h1>cart</h1>')
}

describe('verifyTraffic', () => {
  it('serves when the answer differs from the no-route answer, and records both', async () => {
    const server = await serve(dataPlane('shop.example.com', ok))
    const { result, lines } = run([listener(server.port)])
    const outcome = await result
    expect(outcome?.result).toMatchObject({
      state: 'serving',
      attempts: 1,
      last: { status: 200, url: 'http://shop.example.com:' + server.port + '/cart' },
      noRoute: { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } },
      tlsVerified: true
    })
    // no body and no other header unless traffic-show-body asks for them
    expect(outcome?.result.noRoute).not.toHaveProperty('excerpt')
    expect(outcome?.result.last).not.toHaveProperty('allHeaders')
    expect(outcome?.problem).toBeUndefined()
    expect(lines[0]).toMatch(/HTTPRoute shop\/web → infra\/edge: serving/)
  })

  it('serves when the backend itself answers 404, unlike the data plane', async () => {
    const server = await serve(
      dataPlane('shop.example.com', (_req, res) => {
        res.writeHead(404, { 'content-type': 'application/json' })
        res.end('{"error":"no such cart"}')
      })
    )
    expect((await run([listener(server.port)]).result)?.result.state).toBe('serving')
  })

  it('waits while the data plane answers "no route", then serves once it routes', async () => {
    let routed = false
    const server = await serve((req, res) =>
      routed ? dataPlane('shop.example.com', ok)(req, res) : dataPlane('nobody', ok)(req, res)
    )
    setTimeout(() => (routed = true), 500)
    const { result, lines } = run([listener(server.port)], 5000)
    const outcome = await result
    expect(outcome?.result.state).toBe('serving')
    expect(outcome?.result.attempts).toBeGreaterThan(1)
    // the wait is said once, not once per round
    expect(lines.filter((l) => l.includes('not serving yet'))).toEqual([
      expect.stringMatching(
        /: not serving yet: GET http:\/\/shop.example.com:\d+\/cart got 404 \(no-route\)/
      )
    ])
  })

  it('is not serving when a rule’s path gets the no-route answer (another Route wins it)', async () => {
    const server = await serve(
      dataPlane('shop.example.com', (req, res) =>
        req.url === '/cart' ? ok(req, res) : dataPlane('nobody', ok)(req, res)
      )
    )
    const outcome = await run([listener(server.port, [{}, { path: '/admin', rule: 1 }])], 800)
      .result
    expect(outcome?.result).toMatchObject({
      state: 'not-serving',
      last: { status: 404, url: expect.stringContaining('/admin') }
    })
    expect(outcome?.result.why).toMatch(/\(rule 1\) got the listener's own "no route" answer/)
    expect(outcome?.problem).toMatchObject({ reason: 'NotServing', severity: 'error' })
    expect(outcome?.problem?.remediation).toMatch(
      /another Route attached to the same listener wins/
    )
    expect(outcome?.problem?.evidence?.join('\n')).toMatch(/No-route answer of the same listener/)
  })

  it('says 503 means no healthy endpoint', async () => {
    const server = await serve(
      dataPlane('shop.example.com', (_req, res) => {
        res.writeHead(503, { 'content-type': 'text/plain' })
        res.end('no healthy upstream')
      })
    )
    const outcome = await run([listener(server.port)], 600).result
    expect(outcome?.result.state).toBe('not-serving')
    expect(outcome?.problem?.message).toMatch(
      /503: the data plane took the request but had no healthy endpoint/
    )
  })

  it('is unreachable when nothing listens, and names gateway-address', async () => {
    const outcome = await run([listener(await closedPort())], 600).result
    expect(outcome?.result.state).toBe('unreachable')
    expect(outcome?.result.last?.error).toMatch(/^ECONNREFUSED/)
    expect(outcome?.problem).toMatchObject({ reason: 'Unreachable' })
    expect(outcome?.problem?.remediation).toMatch(/gateway-address/)
  })

  it('does not take a differing body for "routed" when the no-route body itself varies', async () => {
    let n = 0
    const server = await serve((req, res) => {
      res.writeHead(404, { 'content-type': 'text/plain' })
      res.end(`not found, request id ${++n} for ${req.url}`)
    })
    const outcome = await run([listener(server.port)], 600).result
    expect(outcome?.result.state).toBe('not-serving')
  })

  it('judges by expect-status when given, and never passes the no-route answer', async () => {
    const server = await serve(
      dataPlane('shop.example.com', (_req, res) => {
        res.writeHead(404)
        res.end('gone')
      })
    )
    const expect404 = await run([listener(server.port)], 600, [{ from: 404, to: 404 }]).result
    expect(expect404?.result.state).toBe('serving')
    const expect2xx = await run([listener(server.port)], 600, [{ from: 200, to: 299 }]).result
    expect(expect2xx?.result.state).toBe('not-serving')
    expect(expect2xx?.problem?.message).toMatch(/got 404, outside expect-status \(200-299\)/)
    const noRouteOnly = await run([listener(server.port, [{ host: 'nobody.example.com' }])], 600, [
      { from: 100, to: 599 }
    ]).result
    expect(noRouteOnly?.result.state).toBe('not-serving')
  })

  it('keeps only a short, control-free excerpt of a hostile body', async () => {
    const server = await serve(
      dataPlane('shop.example.com', (_req, res) => {
        res.writeHead(503, {
          'content-type': 'text/plain',
          server: `::warning::${'s'.repeat(500)}`
        })
        res.end(`::error::pwned\u0007 ${'<script>'.repeat(200)}`)
      })
    )
    const outcome = await run([listener(server.port)], 500, undefined, true).result
    const excerpt = outcome?.result.last?.excerpt ?? ''
    expect(excerpt).toMatch(/^::error::pwned /)
    expect(excerpt.length).toBeLessThanOrEqual(200)
    expect(excerpt).not.toMatch(/[\u0000-\u001f]/)
    expect(outcome?.result.last?.headers?.server).toHaveLength(200)
  })

  it('shows what any reader may see of an answer, and the body and every header only with traffic-show-body', async () => {
    const server = await serve(
      dataPlane('shop.example.com', (_req, res) => {
        res.writeHead(502, {
          'content-type': 'application/json',
          'content-length': '40',
          server: 'envoy',
          via: '1.1 edge',
          location: 'https://user:s3cret@login.example.com/cb?token=s3cret#frag',
          'set-cookie': 'session=s3cret',
          'www-authenticate': 'Bearer realm=s3cret',
          'x-internal': 'node-7'
        })
        res.end('{"AccessKeyId":"AKIAS3CRET","x":"....."}')
      })
    )
    const hidden = await run([listener(server.port)], 500).result
    const safe = {
      'content-type': 'application/json',
      'content-length': '40',
      server: 'envoy',
      via: '1.1 edge',
      location: 'https://login.example.com/cb'
    }
    expect(hidden?.result.last?.headers).toEqual(safe)
    expect(hidden?.result.last).not.toHaveProperty('excerpt')
    expect(hidden?.result.last).not.toHaveProperty('allHeaders')
    expect(JSON.stringify(hidden)).not.toMatch(/s3cret|AKIA|node-7/)
    expect(hidden?.problem?.evidence?.[0]).toMatch(
      /^Last answer: GET http:\/\/shop\.example\.com:\d+\/cart via 127\.0\.0\.1:\d+: HTTP 502 in \d+ ms \(content-type: application\/json; content-length: 40; server: envoy; via: 1\.1 edge; location: https:\/\/login\.example\.com\/cb\)$/
    )

    const shown = await run([listener(server.port)], 500, undefined, true).result
    expect(shown?.result.last?.excerpt).toBe('{"AccessKeyId":"AKIAS3CRET","x":"....."}')
    expect(shown?.result.last?.allHeaders).toMatchObject({
      'set-cookie': '(masked)',
      'www-authenticate': '(masked)',
      'x-internal': 'node-7',
      location: 'https://user:s3cret@login.example.com/cb?token=s3cret#frag'
    })
    // the problem's evidence reaches the summary: still no body there
    expect(JSON.stringify(shown?.problem)).not.toMatch(/AKIA|s3cret|node-7/)
  })

  it('ends a parent the guard refuses as not probed at once, sending nothing', async () => {
    const server = await serve(dataPlane('shop.example.com', ok))
    const target = listener(server.port)
    const refused: ListenerTarget = {
      ...target,
      requests: target.requests.map((r) => ({ ...r, address: '169.254.169.254' })),
      noRoute: target.noRoute?.map((r) => ({
        ...r,
        address: '169.254.169.254'
      })) as ListenerTarget['noRoute']
    }
    const started = Date.now()
    const { result, lines } = run([refused], 60_000)
    const outcome = await result
    expect(Date.now() - started).toBeLessThan(30_000)
    expect(outcome?.result).toEqual({
      state: 'not-probed',
      why: 'not probed: 169.254.169.254 is a cloud metadata service address'
    })
    expect(outcome?.problem).toMatchObject({
      reason: 'NotProbed',
      severity: 'error',
      title: 'Traffic not probed: the Gateway address is refused'
    })
    expect(lines).toEqual([
      'HTTPRoute shop/web → infra/edge: not probed: 169.254.169.254 is a cloud metadata service address'
    ])
  })

  it('serves only after traffic-successes rounds in a row: a lucky answer starts the count again', async () => {
    // routed, not routed, then routed from the third request on
    let count = 0
    const server = await serve((req, res) => {
      const routed = req.headers.host !== 'shop.example.com' || ++count !== 2
      return routed
        ? dataPlane('shop.example.com', ok)(req, res)
        : dataPlane('nobody', ok)(req, res)
    })
    const { result, lines } = run([listener(server.port)], 10_000, undefined, false, 3)
    const outcome = await result
    expect(outcome?.result).toMatchObject({ state: 'serving', successes: 3, attempts: 5 })
    expect(count).toBe(5)
    expect(lines.at(-1)).toMatch(/serving \(3 rounds in a row routed; traffic verified after/)
  })

  it('is not serving when the answers never hold for traffic-successes rounds', async () => {
    let count = 0
    const server = await serve((req, res) => {
      const routed = req.headers.host !== 'shop.example.com' || ++count % 2 === 1
      return routed
        ? dataPlane('shop.example.com', ok)(req, res)
        : dataPlane('nobody', ok)(req, res)
    })
    const outcome = await run([listener(server.port)], 2500, undefined, false, 3).result
    expect(outcome?.result.state).toBe('not-serving')
    expect(count).toBeGreaterThan(3)
  })

  it('fails a parent whose status stops being ready while it is probed, even one already serving', async () => {
    const server = await serve(dataPlane('shop.example.com', ok))
    const lines: string[] = []
    let reads = 0
    const outcomes = await verifyTraffic(
      [
        { key: 'a', label: 'a', plan: { targets: [listener(server.port)], skipped: [] } },
        { key: 'b', label: 'b', plan: { targets: [listener(server.port)], skipped: [] } }
      ],
      {
        deadline: Date.now() + 10_000,
        now: Date.now,
        send: sendProbe,
        log: (line) => lines.push(line),
        sleep: (ms) => sleep(ms),
        skipTlsVerify: false,
        policy: { allowedCidrs: [] },
        showBody: false,
        successes: 2,
        // a is ready throughout; b loses Accepted once both have served
        degraded: () =>
          Promise.resolve(
            ++reads >= 3 ? new Map([['b', 'Accepted False NotAllowedByListeners']]) : new Map()
          )
      }
    )
    expect(outcomes.get('a')?.result.state).toBe('serving')
    expect(outcomes.get('b')).toMatchObject({
      result: {
        state: 'not-serving',
        why: 'the status stopped being ready while traffic was probed: Accepted False NotAllowedByListeners'
      },
      problem: { reason: 'StatusDegraded', severity: 'error' }
    })
    expect(lines).toContain(
      'b: status no longer ready while probing: Accepted False NotAllowedByListeners'
    )
  })

  it('passes a not-probed plan through without sending anything', async () => {
    const outcomes = await verifyTraffic(
      [
        {
          key: 'g',
          label: 'g',
          plan: { notProbed: 'GRPCRoute traffic is not probed yet', cause: 'unsupported' }
        }
      ],
      {
        deadline: Date.now() + 1000,
        now: Date.now,
        send: () => Promise.reject(new Error('sent')),
        log: () => undefined,
        sleep,
        skipTlsVerify: false,
        policy: { allowedCidrs: [] },
        showBody: false,
        successes: 1
      }
    )
    expect(outcomes.get('g')).toMatchObject({
      result: { state: 'not-probed', why: 'GRPCRoute traffic is not probed yet' },
      problem: { reason: 'NotProbed', severity: 'warning' }
    })
  })

  it('keeps the last real answer when the deadline cuts the final request short', async () => {
    let clock = 0
    const outcomes = await verifyTraffic(
      [{ key: 'k', label: 'k', plan: { targets: [listener(1)], skipped: [] } }],
      {
        deadline: 10_000,
        now: () => clock,
        sleep: (ms) => {
          clock += ms
          return Promise.resolve()
        },
        send: (_request, options) =>
          Promise.resolve(
            options.timeoutMs < REQUEST_TIMEOUT_MS
              ? {
                  headers: {},
                  body: '',
                  durationMs: options.timeoutMs,
                  error: { code: 'ETIMEDOUT', message: 'cut' }
                }
              : { status: 503, headers: {}, body: '', durationMs: 1 }
          ),
        log: () => undefined,
        skipTlsVerify: false,
        policy: { allowedCidrs: [] },
        showBody: false,
        successes: 1
      }
    )
    expect(outcomes.get('k')?.result).toMatchObject({ state: 'not-serving', last: { status: 503 } })
  })
})

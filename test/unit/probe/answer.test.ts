// What one answer means, without a network: the no-route comparison and the gateway errors.
import { describe, expect, it } from 'vitest'
import { classify, type NoRouteAnswers, type RawAnswer } from '../../../src/probe/rules/answer.ts'
import type { ProbeRequest } from '../../../src/probe/rules/plan-requests.ts'

const request = (host: string, path: string): ProbeRequest => ({
  listener: 'web',
  scheme: 'http',
  address: '127.0.0.1',
  origin: 'status',
  port: 80,
  host,
  method: 'GET',
  path,
  headers: {},
  verifyTls: true
})
const answer = (status: number, body = '', type = 'text/plain'): RawAnswer => ({
  status,
  headers: { 'content-type': type },
  body,
  durationMs: 1
})
const real = request('shop.example.com', '/cart')

function noRoute(bodyOf: (host: string, path: string) => string): NoRouteAnswers {
  const a = request('nr-a.invalid', '/nr-a')
  const b = request('nr-b.invalid', '/nr-b')
  return [
    { request: a, answer: answer(404, bodyOf(a.host, a.path)) },
    { request: b, answer: answer(404, bodyOf(b.host, b.path)) }
  ]
}

describe('classify', () => {
  const fixed = noRoute(() => '404 page not found\n')

  it('tells the backend’s 404 from the data plane’s', () => {
    expect(classify(real, answer(404, '404 page not found\n'), fixed, undefined)).toBe('no-route')
    expect(classify(real, answer(404, 'no such cart'), fixed, undefined)).toBe('routed')
    expect(classify(real, answer(404, '404 page not found\n', 'text/html'), fixed, undefined)).toBe(
      'routed'
    )
  })

  it('recognizes a no-route answer that echoes the request’s host and path', () => {
    const echo = noRoute((host, path) => `no route for ${host}${path}`)
    expect(classify(real, answer(404, 'no route for shop.example.com/cart'), echo, undefined)).toBe(
      'no-route'
    )
  })

  it('treats gateway errors and 421 as not serving, and a 404 without comparison as unproven', () => {
    for (const status of [500, 502, 503, 504]) {
      expect(classify(real, answer(status), fixed, undefined)).toBe('gateway-error')
    }
    expect(classify(real, answer(421), fixed, undefined)).toBe('no-route')
    expect(classify(real, answer(404), undefined, undefined)).toBe('unproven-404')
    expect(classify(real, answer(200), undefined, undefined)).toBe('routed')
  })

  it('lets expect-status decide, except for the no-route answer', () => {
    expect(classify(real, answer(503), fixed, [{ from: 503, to: 503 }])).toBe('routed')
    expect(classify(real, answer(200), fixed, [{ from: 300, to: 399 }])).toBe('unexpected-status')
    expect(
      classify(real, answer(404, '404 page not found\n'), fixed, [{ from: 100, to: 599 }])
    ).toBe('no-route')
  })

  it('separates TLS failures from unreachable addresses', () => {
    const failed = (code: string): RawAnswer => ({
      headers: {},
      body: '',
      durationMs: 1,
      error: { code, message: code }
    })
    expect(classify(real, failed('ERR_TLS_CERT_ALTNAME_INVALID'), fixed, undefined)).toBe(
      'tls-error'
    )
    expect(classify(real, failed('UNABLE_TO_VERIFY_LEAF_SIGNATURE'), fixed, undefined)).toBe(
      'tls-error'
    )
    expect(classify(real, failed('ECONNREFUSED'), fixed, undefined)).toBe('unreachable')
    expect(classify(real, failed('ETIMEDOUT'), fixed, undefined)).toBe('unreachable')
  })
})

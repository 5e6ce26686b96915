// The tracking issue's hidden state, version 1, as an issue written by an earlier release holds it.
// test/fixtures/github/state-v1.txt was encoded once and is never regenerated: the decoder must keep
// reading it whatever the encoder becomes, or a monitor upgrade would forget every Route's last verdict
// and miss (or invent) the transitions of its first run. A new format gets a new version and fixture.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { decodeState } from '../../../src/github/state.ts'
import type { RouteState } from '../../../src/model/transitions.ts'

const V1 = readFileSync(new URL('../../fixtures/github/state-v1.txt', import.meta.url), 'utf8')

const V1_ROUTES: RouteState[] = [
  { kind: 'HTTPRoute', namespace: 'shop', name: 'web', verdict: 'ready' },
  { kind: 'HTTPRoute', namespace: 'shop', name: 'checkout-v2', verdict: 'failed' },
  { kind: 'HTTPRoute', namespace: 'payments', name: 'api', verdict: 'pending' },
  { kind: 'GRPCRoute', namespace: 'shop', name: 'web', verdict: 'failed' },
  { kind: 'TLSRoute', namespace: 'edge-system', name: 'passthrough.example.com', verdict: 'ready' },
  { kind: 'TCPRoute', namespace: 'db', name: 'postgres', verdict: 'ready' },
  { kind: 'UDPRoute', namespace: 'dns', name: 'coredns', verdict: 'pending' }
]

const sortKey = (s: RouteState) => `${s.kind}/${s.namespace}/${s.name}`
const sorted = (states: RouteState[]) =>
  [...states].sort((a, b) => sortKey(a).localeCompare(sortKey(b)))

describe('state format v1 (committed fixture)', () => {
  it('is the block a v1 encoder wrote', () => {
    expect(V1.trimEnd()).toMatch(/^<!-- route-gate:state v1 [A-Za-z0-9+/]+=* -->$/)
  })

  it('decodes to every Route with its verdict', () => {
    const decoded = decodeState(V1)
    expect(Array.isArray(decoded)).toBe(true)
    expect(sorted(decoded as RouteState[])).toEqual(sorted(V1_ROUTES))
  })

  it('is found between the text an issue body puts around it', () => {
    const body = `## Route health\n\n| Route | verdict |\n| --- | --- |\n\n${V1.trimEnd()}\n\n_updated by route-gate_\n`
    expect(sorted(decodeState(body) as RouteState[])).toEqual(sorted(V1_ROUTES))
  })
})

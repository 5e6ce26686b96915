import { describe, expect, it } from 'vitest'
import {
  changeOf,
  diffStates,
  isDegradation,
  parseRouteStates,
  TransitionLog,
  type RouteState
} from '../../src/model/transitions.ts'
import type { TransitionState, Verdict } from '../../src/model/types.ts'

const s = (name: string, verdict: Verdict, namespace = 'shop'): RouteState => ({
  kind: 'HTTPRoute',
  namespace,
  name,
  verdict
})
const t = (name: string, from: TransitionState, to: TransitionState) => ({
  kind: 'HTTPRoute',
  namespace: 'shop',
  name,
  from,
  to
})

describe('diffStates', () => {
  const STATES: TransitionState[] = ['ready', 'failed', 'pending', 'absent']
  const EXPECTED: Record<string, string | undefined> = {
    'ready→ready': undefined,
    'ready→failed': 'degraded',
    'ready→pending': 'degraded',
    'ready→absent': 'removed',
    'failed→ready': 'recovered',
    'failed→failed': undefined,
    'failed→pending': 'changed',
    'failed→absent': 'removed',
    'pending→ready': 'recovered',
    'pending→failed': 'changed',
    'pending→pending': undefined,
    'pending→absent': 'removed',
    'absent→ready': 'added',
    'absent→failed': 'added',
    'absent→pending': 'added',
    'absent→absent': undefined
  }
  for (const from of STATES) {
    for (const to of STATES) {
      const expected = EXPECTED[`${from}→${to}`]
      it(`${from} → ${to} is ${expected ?? 'no transition'}`, () => {
        const before = from === 'absent' ? [] : [s('web', from)]
        const after = to === 'absent' ? [] : [s('web', to)]
        const transitions = diffStates(before, after)
        expect(transitions).toEqual(expected === undefined ? [] : [t('web', from, to)])
        expect(transitions.map(changeOf)).toEqual(expected === undefined ? [] : [expected])
        expect(transitions.some(isDegradation)).toBe(expected === 'degraded')
      })
    }
  }

  it('reports nothing on the first run: without a previous state this run is the baseline', () => {
    expect(diffStates(undefined, [s('web', 'failed'), s('api', 'ready')])).toEqual([])
  })

  it('sees a renamed Route as a deleted one and a new one, in Route order', () => {
    expect(diffStates([s('web', 'ready')], [s('web-v2', 'failed')])).toEqual([
      t('web', 'ready', 'absent'),
      t('web-v2', 'absent', 'failed')
    ])
  })

  it('tells Routes of the same name apart by namespace and kind', () => {
    const grpc = { ...s('api', 'ready'), kind: 'GRPCRoute' }
    const transitions = diffStates(
      [s('api', 'ready', 'a'), s('api', 'ready', 'b'), grpc],
      [s('api', 'failed', 'a'), s('api', 'ready', 'b'), { ...grpc, verdict: 'ready' }]
    )
    expect(transitions).toEqual([{ ...t('api', 'ready', 'failed'), namespace: 'a' }])
  })
})

describe('TransitionLog (a watch window)', () => {
  it('records a degradation the moment it happens and a recovery after it', () => {
    const log = new TransitionLog([s('web', 'ready')])
    expect(log.observe(s('web', 'failed'))).toEqual(t('web', 'ready', 'failed'))
    expect(log.observe(s('web', 'failed'))).toBeUndefined()
    expect(log.observe(s('web', 'ready'))).toEqual(t('web', 'failed', 'ready'))
    expect(log.finish([s('web', 'ready')])).toEqual([
      t('web', 'ready', 'failed'),
      t('web', 'failed', 'ready')
    ])
  })

  it('drops a pending blip that settles back, and records one that settles elsewhere', () => {
    const log = new TransitionLog([s('web', 'ready'), s('api', 'ready')])
    expect(log.observe(s('web', 'pending'))).toBeUndefined()
    expect(log.observe(s('web', 'ready'))).toBeUndefined()
    expect(log.observe(s('api', 'pending'))).toBeUndefined()
    expect(log.observe(s('api', 'failed'))).toEqual(t('api', 'ready', 'failed'))
    expect(log.finish([s('web', 'ready'), s('api', 'failed')])).toEqual([
      t('api', 'ready', 'failed')
    ])
  })

  it('records a Route still pending at the end of the window as degraded then', () => {
    const log = new TransitionLog([s('web', 'ready')])
    expect(log.observe(s('web', 'pending'))).toBeUndefined()
    const transitions = log.finish([s('web', 'pending')])
    expect(transitions).toEqual([t('web', 'ready', 'pending')])
    expect(transitions.some(isDegradation)).toBe(true)
  })

  it('records new and deleted Routes, and a deletion of a Route it never recorded as nothing', () => {
    const log = new TransitionLog([s('web', 'ready')])
    expect(log.observe(s('new', 'failed'))).toEqual(t('new', 'absent', 'failed'))
    expect(log.remove(s('web', 'ready'))).toEqual(t('web', 'ready', 'absent'))
    expect(log.remove(s('ghost', 'ready'))).toBeUndefined()
    expect(log.finish([s('new', 'failed')])).toHaveLength(2)
  })

  it('takes the final explained states as the last word', () => {
    const log = new TransitionLog([s('web', 'ready')])
    expect(log.finish([s('web', 'failed')])).toEqual([t('web', 'ready', 'failed')])
  })
})

describe('parseRouteStates', () => {
  it('reads the Routes of a report or state file', () => {
    expect(parseRouteStates({ routes: [{ ...s('web', 'ready'), parents: [] }] })).toEqual([
      s('web', 'ready')
    ])
    expect(parseRouteStates({ routes: [] })).toEqual([])
  })

  it.each([
    null,
    {},
    { routes: 'x' },
    { routes: [{ kind: 'Ingress', namespace: 'a', name: 'b', verdict: 'ready' }] },
    { routes: [{ kind: 'HTTPRoute', namespace: 'a', name: 'b', verdict: 'fine' }] },
    { routes: [{ kind: 'HTTPRoute', name: 'b', verdict: 'ready' }] }
  ])('refuses %j', (value) => {
    expect(parseRouteStates(value)).toBeUndefined()
  })
})

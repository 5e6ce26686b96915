import { describe, expect, it } from 'vitest'
import { ReadyTimes } from '../../src/jobs/gate/ready-times.ts'

describe('ReadyTimes', () => {
  it('gives the time a Route was seen to become ready', () => {
    const times = new ReadyTimes()
    times.observe('a', 'pending', 1000)
    times.observe('a', 'ready', 5000)
    times.observe('a', 'ready', 9000)
    expect(times.of('a')).toBe(new Date(5000).toISOString())
  })

  it('gives none for a Route ready at its first read, or never seen', () => {
    const times = new ReadyTimes()
    times.observe('a', 'ready', 1000)
    times.observe('a', 'ready', 2000)
    expect(times.of('a')).toBeUndefined()
    expect(times.of('b')).toBeUndefined()
  })

  it('takes the last time it became ready when it fell back in between', () => {
    const times = new ReadyTimes()
    times.observe('a', 'failed', 1000)
    times.observe('a', 'ready', 2000)
    times.observe('a', 'pending', 3000)
    expect(times.of('a')).toBeUndefined()
    times.observe('a', 'ready', 4000)
    expect(times.of('a')).toBe(new Date(4000).toISOString())
  })
})

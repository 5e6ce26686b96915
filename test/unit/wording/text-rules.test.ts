// Text helpers: a controller's message on one line inside our sentences, and durations a reader
// reads at a glance.
import { describe, expect, it } from 'vitest'
import {
  describeCondition,
  formatDuration,
  listing,
  quoted
} from '../../../src/wording/phrasing.ts'

describe('text helpers', () => {
  it('puts a multi-line controller message on one line, one space per break', () => {
    expect(quoted('line one\r\nline two\n')).toBe('line one line two')
    expect(quoted(undefined)).toBe('')
  })

  it('describes a condition with or without a reason and message', () => {
    expect(describeCondition({ type: 'Accepted', status: 'Unknown' })).toBe('Accepted=Unknown')
    expect(
      describeCondition({
        type: 'Programmed',
        status: 'False',
        reason: 'Invalid',
        message: 'bad\nconfig'
      })
    ).toBe('Programmed=False (Invalid): bad config')
  })

  it.each([
    [59_900, '59.9s'],
    [60_000, '1m 0s'],
    [3_599_000, '59m 59s'],
    [3_600_000, '1h 0m'],
    [47 * 3_600_000 + 59 * 60_000, '47h 59m'],
    [48 * 3_600_000, '2d 0h'],
    [-5_000, '0.0s']
  ])('formats %i ms as %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text)
  })

  it('lists nothing, one, two or more items', () => {
    expect(listing([])).toBe('')
    expect(listing(['a'])).toBe('a')
    expect(listing(['a', 'b'])).toBe('a and b')
    expect(listing(['a', 'b', 'c'])).toBe('a, b and c')
  })
})

// Long hostile runs (U+009D, newlines, blank lines before "::") must escape correctly and in linear
// time: each pattern once retried from every character of a run, so 40k of them cost seconds.
import { describe, expect, it } from 'vitest'
import { stripControl } from '../../src/model/plain-text.ts'
import { fencedCode, safeLogLine } from '../../src/report/escape.ts'

// Time of the slower of two runs at size n and 2n, best of three to ride out a loaded machine.
function doublingRatio(make: (n: number) => string, work: (s: string) => unknown): number {
  const time = (s: string): number => {
    let best = Infinity
    for (let i = 0; i < 3; i += 1) {
      const start = performance.now()
      work(s)
      best = Math.min(best, performance.now() - start)
    }
    return Math.max(best, 0.5)
  }
  const small = make(1 << 16)
  const large = make(1 << 17)
  return time(large) / time(small)
}

describe('escaping long hostile runs', () => {
  it('strips a run of 8-bit OSC introducers and keeps the text around it', () => {
    expect(stripControl(`a${'\u009d'.repeat(1000)}b`)).toBe('ab')
    expect(stripControl('\u009d0;title\u009cok')).toBe('ok')
  })

  it('neutralizes "::" after blank lines and leading spaces, and keeps the blank lines', () => {
    const out = safeLogLine(`${'\n'.repeat(500)}  ::error ::x`)
    expect(out).toBe(`${'\n'.repeat(500)}  \u2236:error ::x`)
  })

  it('drops only the trailing newlines from a fenced block', () => {
    expect(fencedCode(`a${'\n'.repeat(300)}b${'\n'.repeat(300)}`)).toBe(
      `\`\`\`\na${'\n'.repeat(300)}b\n\`\`\``
    )
  })

  it.each([
    ['U+009D run', (n: number) => '\u009d'.repeat(n), stripControl],
    ['newline run before ::', (n: number) => `${'\n'.repeat(n)}x::`, safeLogLine],
    ['newline run in a fence', (n: number) => `${'\n'.repeat(n)}x`, fencedCode]
  ])('escapes a %s in linear time', (_name, make, work) => {
    expect(doublingRatio(make, work)).toBeLessThan(3)
  })
})

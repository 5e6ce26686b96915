// Long hostile runs (U+009D, newlines, blank lines before "::") must escape correctly and in linear
// time. Each pattern was once retried from every character of a run, so 40k of them cost seconds and
// the megabyte runs below would take hours: the test's own timeout is the bound, with orders of
// magnitude to spare on a loaded machine. The ratios themselves are timed in `npm run bench`.
import { describe, expect, it } from 'vitest'
import { stripControl } from '../../src/model/plain-text.ts'
import { fencedCode, safeLogLine } from '../../src/report/escape.ts'

const MEGA = 1 << 20

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

  it('strips a megabyte run of U+009D', () => {
    expect(stripControl(`a${'\u009d'.repeat(MEGA)}b`)).toBe('ab')
  })

  it('neutralizes "::" after a megabyte of newlines', () => {
    // mid-line "::" starts no workflow command: the text comes back whole
    const text = `${'\n'.repeat(MEGA)}x::error::y`
    expect(safeLogLine(text)).toBe(text)
    expect(safeLogLine(`${'\n'.repeat(MEGA)}::error::y`).endsWith('\u2236:error::y')).toBe(true)
  })

  it('fences text after a megabyte of newlines', () => {
    expect(fencedCode(`${'\n'.repeat(MEGA)}x`)).toBe(`\`\`\`\n${'\n'.repeat(MEGA)}x\n\`\`\``)
  })
})

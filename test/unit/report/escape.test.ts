import { describe, expect, it } from 'vitest'
import {
  escapeHtml,
  escapeMarkdownInline,
  fencedCode,
  safeLogLine,
  stripControl,
  truncate
} from '../../../src/report/escape.ts'
import { HOSTILE } from '../../fixtures/report/reports.ts'
import {
  expectInertMarkdown,
  expectNoControl,
  expectNoWorkflowCommand,
  splitFences
} from '../../fixtures/report/inert.ts'

describe('stripControl', () => {
  it('removes ANSI colour, hyperlink (OSC 8) and 8-bit CSI sequences, keeping the text', () => {
    expect(stripControl('\u001b[31mred\u001b[0m')).toBe('red')
    expect(stripControl('\u001b]8;;https://evil.example\u0007link\u001b]8;;\u0007')).toBe('link')
    expect(stripControl('a\u009b31mb')).toBe('ab')
    expect(stripControl('title\u001b]0;pwned\u001b\\ end')).toBe('title end')
  })

  it('removes C0, DEL, C1 and bidi overrides, keeps newlines, turns tabs into spaces', () => {
    expect(stripControl('a\u0000b\u0007c\u007fd\u0085e\r\nf\tg\u202eh')).toBe('abcde\nf gh')
  })

  it('removes a lone carriage return that could overwrite a terminal line', () => {
    expect(stripControl('safe\rEVIL')).toBe('safeEVIL')
  })

  it('leaves an unterminated OSC as text rather than swallowing the rest', () => {
    expect(stripControl('\u001b]no end here')).toBe('no end here')
  })
})

describe('escapeHtml', () => {
  it('encodes the five HTML specials and strips control characters first', () => {
    expect(escapeHtml(`<img src=x onerror="alert('1')"> & \u001b[1m`)).toBe(
      '&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt; &amp; '
    )
  })
})

describe('escapeMarkdownInline', () => {
  it('keeps table cells whole and emphasis, code and links inert', () => {
    const out = escapeMarkdownInline('a | b `c` *d* _e_ [f](g) \\ ~h~')
    expect(out).not.toMatch(/[|`*_[\]\\~]/)
    expect(out).toBe(
      'a &#124; b &#96;c&#96; &#42;d&#42; &#95;e&#95; &#91;f&#93;(g) &#92; &#126;h&#126;'
    )
  })

  it('breaks @mentions and #refs with a zero-width space after the entity', () => {
    expect(escapeMarkdownInline('@octocat')).toBe('&#64;&#8203;octocat')
    expect(escapeMarkdownInline('fixes #123 and org/repo#4')).toBe(
      'fixes &#35;&#8203;123 and org/repo&#35;&#8203;4'
    )
    // nothing to link: plain entities, no zero-width space
    expect(escapeMarkdownInline('a @ b # c')).toBe('a &#64; b # c')
  })

  it('does not re-escape its own entities', () => {
    expect(escapeMarkdownInline("'&")).toBe('&#39;&amp;')
  })

  it('turns newlines into <br> so a cell or quote stays one line', () => {
    expect(escapeMarkdownInline('one\ntwo')).toBe('one<br>two')
  })

  it('neutralizes a heading, list or ordered-list marker at the start', () => {
    expect(escapeMarkdownInline('# title')).toBe('&#35; title')
    expect(escapeMarkdownInline('- item')).toBe('&#45; item')
    expect(escapeMarkdownInline('12. item')).toBe('12&#46; item')
    expect(escapeMarkdownInline('=====')).toBe('&#61;====')
  })

  it('renders the hostile sample inertly', () => {
    const out = escapeMarkdownInline(HOSTILE)
    expect(out).not.toContain('\n')
    expectInertMarkdown(out)
  })
})

describe('safeLogLine', () => {
  it('neutralizes workflow commands on every line, indented or not, and keeps them readable', () => {
    const out = safeLogLine(
      'ok\n::error::boom\n  ::set-output name=x::y\n##[warning]old\n\t::debug::z'
    )
    expectNoWorkflowCommand(out)
    expect(out.split('\n')).toEqual([
      'ok',
      '\u2236:error::boom',
      '  \u2236:set-output name=x::y',
      '\uff03#[warning]old',
      ' \u2236:debug::z'
    ])
  })

  it('cannot be fooled by a carriage return or an escape before the command', () => {
    expect(safeLogLine('x\r::error::boom')).toBe('x::error::boom')
    expect(safeLogLine('x\r\n::error::boom')).toBe('x\n\u2236:error::boom')
    expect(safeLogLine('\u001b[0m::error::boom')).toBe('\u2236:error::boom')
    expect(safeLogLine('\u00a0::error::nbsp')).toBe('\u00a0\u2236:error::nbsp')
  })

  it('leaves "::" inside a line alone', () => {
    expect(safeLogLine('see a::b')).toBe('see a::b')
  })

  it('neutralizes the legacy "##[" anywhere in a line, where the runner finds it', () => {
    expect(safeLogLine('msg ##[add-mask]Routes, ##[set-output name=ready;]true')).toBe(
      'msg \uff03#[add-mask]Routes, \uff03#[set-output name=ready;]true'
    )
    expect(safeLogLine('a ::stop-commands::tok\n::tok::')).toBe(
      'a ::stop-commands::tok\n\u2236:tok::'
    )
  })

  it('handles the hostile sample', () => {
    const out = safeLogLine(HOSTILE)
    expectNoWorkflowCommand(out)
    expectNoControl(out)
    expect(out.split('\n')).toHaveLength(HOSTILE.split('\n').length)
  })
})

describe('truncate', () => {
  it('keeps short text and cuts long text to the limit with an ellipsis', () => {
    expect(truncate('abc', 3)).toBe('abc')
    expect(truncate('abcdef', 4)).toBe('abc…')
    expect(truncate('abcdef', 4)).toHaveLength(4)
    expect(truncate('abc', 0)).toBe('')
  })

  it('never splits a surrogate pair', () => {
    const out = truncate('ab😀cd', 4)
    expect(out).toBe('ab…')
    expect(out.isWellFormed()).toBe(true)
  })
})

describe('fencedCode', () => {
  it('uses a fence longer than any backtick run in the content', () => {
    const block = fencedCode('a\n```\nb\n`````\nc', 'yaml')
    expect(block.startsWith('``````yaml\n')).toBe(true)
    const { code, outside } = splitFences(block)
    expect(code).toEqual(['a\n```\nb\n`````\nc'])
    expect(outside).toBe('')
  })

  it('keeps its lines from reading as workflow commands', () => {
    expect(fencedCode('::error::x\n  ::warning::y')).toBe(
      '```\n\u2236:error::x\n  \u2236:warning::y\n```'
    )
  })

  it('strips control characters and keeps the language tag clean', () => {
    expect(fencedCode('\u001b[31mx', 'yaml`\n<b>')).toBe('```yamlb\nx\n```')
  })
})

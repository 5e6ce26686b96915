// Every string here may come from the cluster (Route names, controller messages), so it is written by
// someone else. These functions make such text inert in each place it lands: the terminal, the
// workflow log (where "::" lines are commands), Markdown and HTML.

import { stripControl } from '../model/plain-text.ts'

export { stripControl, truncate } from '../model/plain-text.ts'

const HTML_ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;'
}

export function escapeHtml(text: string): string {
  return stripControl(text).replace(/[&<>"']/g, (c) => HTML_ENTITIES[c] ?? c)
}

// One pass, so that no entity written here is escaped again: HTML specials; Markdown emphasis, code,
// links, tables and escapes; a heading, list or rule marker at the start (the text may follow "> " or
// "- "); and @mentions and #refs. GitHub links those after Markdown is rendered, so an entity alone
// (&#64;) still mentions: a zero-width space after the sign is what breaks the link.
const MARKDOWN_INLINE = /(@(?=[\p{L}\p{N}])|#(?=\p{N}))|^[#+\-=]|(?<=^\d+)[.)]|[&<>"'@|`*_[\]\\~]/gu

// Names, namespaces and most reasons: nothing the pattern above or stripControl would touch (no
// marker first, no sign, no dot or parenthesis after leading digits, no control), so they are kept
// as they are without the Unicode pattern, which a summary of thousands of Routes runs thousands of
// times.
const MARKDOWN_PLAIN = /^[A-Za-z0-9][A-Za-z0-9 ,:/-]*$/

export function escapeMarkdownInline(text: string): string {
  if (MARKDOWN_PLAIN.test(text)) return text
  return stripControl(text)
    .replace(
      MARKDOWN_INLINE,
      (c, link?: string) =>
        `${HTML_ENTITIES[c] ?? `&#${c.charCodeAt(0)};`}${link === undefined ? '' : '&#8203;'}`
    )
    .replace(/\n/g, '<br>')
}

// The runner reads a line as a command when it starts with "::" (v2) after leading whitespace, and
// finds the legacy "##[" (v1) anywhere in a line. "::stop-commands::" and the "::<token>::" that
// resumes are v2 commands too. A look-alike first character keeps the text readable and makes it no
// command. The leading space stops at the line's end: "\s*" would run over every following blank
// line from each line start, which is quadratic in a run of newlines.
const WORKFLOW_COMMAND = /^([^\S\n\r\u2028\u2029]*)::|##\[/gm

/**
 * Makes no line of `text` a workflow command, leaving everything else (a rendering's own colours)
 * as it is: for output whose parts were made safe one by one and then joined.
 */
export function neutralizeWorkflowCommands(text: string): string {
  return text.replace(WORKFLOW_COMMAND, (match, space: string | undefined) =>
    space === undefined ? '\uff03#[' : `${space}\u2236:`
  )
}

/** For the workflow log: no control characters, and no line of the text can be a workflow command. */
export function safeLogLine(text: string): string {
  return neutralizeWorkflowCommands(stripControl(text))
}

// Not /\n+$/: that retries from every newline of a run that text follows, quadratic in the run.
function withoutTrailingNewlines(text: string): string {
  let end = text.length
  while (end > 0 && text.charCodeAt(end - 1) === 10) end -= 1
  return text.slice(0, end)
}

/** For an Action output: a safe log line on one line, since the README echoes outputs into the log. */
export function safeOutputValue(text: string): string {
  return safeLogLine(text).replace(/\n/g, ' ')
}

/**
 * A fenced code block that its content cannot close: the fence is longer than any backtick run in it.
 * Its lines are also safe log lines, because the CLI's Markdown may be printed into a workflow log,
 * and hold no HTML comment opener, because route-gate finds its own issue and comment by one.
 */
export function fencedCode(content: string, language = ''): string {
  // "<!--" would let the text hide or plant a comment (route-gate's markers) in the raw body
  const cleaned = safeLogLine(content).replace(/<!--/g, '<!\u2010-')
  const text = withoutTrailingNewlines(cleaned)
  const longestRun = (text.match(/`+/g) ?? []).reduce(
    (longest, run) => Math.max(longest, run.length),
    0
  )
  const fence = '`'.repeat(Math.max(3, longestRun + 1))
  return `${fence}${language.replace(/[^\w-]/g, '')}\n${text}\n${fence}`
}

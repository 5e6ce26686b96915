// Plain-text hygiene and phrasing that both the decision layers and the renderers use: no escaping
// for any medium here (that is src/report's), only what makes text safe to keep and short to read.

// ANSI/VT escape sequences: CSI (ESC [ … final byte), OSC (ESC ] … BEL or ESC \), and the short
// two-character forms. Also the 8-bit CSI/OSC introducers (U+009B, U+009D). An OSC body cannot
// hold another introducer: otherwise a run of U+009D rescans the rest of the text from each one.
const ANSI_ESCAPE =
  /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]|(?:\u001b\]|\u009d)[^\u0007\u001b\u009b\u009c\u009d\n]*(?:\u0007|\u001b\\|\u009c)|\u001b[@-Z\\-_]?/g

// C0 except \t and \n, DEL, C1, and the bidirectional overrides that can make text read differently
// from what it is ("Trojan Source").
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g

/** Removes ANSI escapes and control characters; keeps \n, turns \t into a space and \r\n into \n. */
export function stripControl(text: string): string {
  return text
    .replace(/\r\n/g, '\n')
    .replace(ANSI_ESCAPE, '')
    .replace(CONTROL, '')
    .replace(/\t/g, ' ')
}

/** Cuts to at most `max` UTF-16 units, ending in "…" when cut, never splitting a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text
  if (max <= 0) return ''
  let end = max - 1
  const last = text.charCodeAt(end - 1)
  if (last >= 0xd800 && last <= 0xdbff) end -= 1
  return `${text.slice(0, end)}…`
}

/** "4.2s", "1m 4s", "2h 5m", "2d 4h": elapsed times in progress lines and ages in evidence alike. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, ms) / 1000
  if (seconds < 60) return `${seconds.toFixed(1)}s`
  const whole = Math.round(seconds)
  if (whole < 3600) return `${Math.floor(whole / 60)}m ${whole % 60}s`
  const hours = Math.floor(whole / 3600)
  if (hours < 48) return `${hours}h ${Math.floor((whole % 3600) / 60)}m`
  return `${Math.floor(hours / 24)}d ${hours % 24}h`
}

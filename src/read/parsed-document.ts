// What every reader of manifests and dumps returns, the JSON and the YAML ones alike: each document's
// value and the lines an error or an annotation points at.

export interface ParsedDocument {
  value: unknown
  /** 1-based line where the document's content starts */
  line: number
  /** the line of each item of a top-level `items` sequence, in order */
  itemLines: number[]
}

/** Maps an offset of `text` to its 1-based line. */
export function lineIndex(text: string): (offset: number) => number {
  const starts = [0]
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1)
  return (offset) => {
    let low = 0
    let high = starts.length - 1
    while (low < high) {
      const mid = (low + high + 1) >> 1
      if ((starts[mid] ?? 0) <= offset) low = mid
      else high = mid - 1
    }
    return low + 1
  }
}

// The notes of one release: its section of CHANGELOG.md, from its `## [X.Y.Z]` heading to the next
// `## ` heading. The release workflow runs this (`node scripts/release-notes.ts 1.2.3`) and fails
// when the version has no section, so a tag cannot be released without notes.
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'

export function releaseNotes(changelog: string, version: string): string | undefined {
  const lines = changelog.split('\n')
  const start = lines.findIndex((line) => line.startsWith(`## [${version}]`))
  if (start < 0) return undefined
  const rest = lines.slice(start + 1)
  const end = rest.findIndex((line) => line.startsWith('## ') || /^\[[^\]]+\]: /.test(line))
  const notes = (end < 0 ? rest : rest.slice(0, end)).join('\n').trim()
  return notes === '' ? undefined : notes
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const version = process.argv[2] ?? ''
  const notes = releaseNotes(await readFile('CHANGELOG.md', 'utf8'), version)
  if (notes === undefined) {
    process.stderr.write(`CHANGELOG.md has no section "## [${version}]" with notes\n`)
    process.exit(1)
  }
  process.stdout.write(`${notes}\n`)
}

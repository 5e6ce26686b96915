// A release's notes come from CHANGELOG.md; the release workflow refuses a tag without them.
import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { releaseNotes } from '../../scripts/release-notes.ts'
import { REPO } from '../helpers/action.ts'

const run = promisify(execFile)

const changelog = `# Changelog

## [Unreleased]

- next

## [1.1.0] - 2027-01-02

### Fixed

- a fix

## [1.0.0] - 2027-01-01

- first

[1.1.0]: https://example.invalid/v1.1.0
`

describe('releaseNotes', () => {
  it("takes the version's section up to the next heading", () => {
    expect(releaseNotes(changelog, '1.1.0')).toBe('### Fixed\n\n- a fix')
    expect(releaseNotes(changelog, '1.0.0')).toBe('- first')
  })

  it('has none for a version without a section, or a prefix of one', () => {
    expect(releaseNotes(changelog, '2.0.0')).toBeUndefined()
    expect(releaseNotes(changelog, '1.1')).toBeUndefined()
  })

  it("finds notes for package.json's version in the project's CHANGELOG.md", async () => {
    const { version } = JSON.parse(await readFile(path.join(REPO, 'package.json'), 'utf8')) as {
      version: string
    }
    const { stdout } = await run(process.execPath, ['scripts/release-notes.ts', version], {
      cwd: REPO
    })
    expect(stdout.trim().length).toBeGreaterThan(20)
    expect(stdout).not.toContain(`## [${version}]`)
  })

  it('exits 1 naming the version when CHANGELOG.md has no section for it', async () => {
    await expect(
      run(process.execPath, ['scripts/release-notes.ts', '99.0.0'], { cwd: REPO })
    ).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('## [99.0.0]') })
  })
})

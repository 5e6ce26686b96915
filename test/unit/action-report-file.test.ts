// The committed Action bundle, as a runner starts it, in a workspace where a pull request planted
// `report.json -> ~/.bashrc`: the step fails with exit 2 and one line, and the file the link points
// at keeps its text and its mode.
import { mkdtemp, readFile, stat, symlink, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO, runAction } from '../helpers/action.ts'

describe('the Action bundle and a planted report-file', () => {
  it('refuses to write through a symlink the workspace holds', async () => {
    const home = await mkdtemp(path.join(os.tmpdir(), 'route-gate-home-'))
    const bashrc = path.join(home, '.bashrc')
    await writeFile(bashrc, 'alias ll="ls -l"\n', { mode: 0o644 })
    const workspace = await mkdtemp(path.join(os.tmpdir(), 'route-gate-workspace-'))
    await symlink(bashrc, path.join(workspace, 'report.json'))
    const result = await runAction(
      {
        'from-file': path.join(REPO, 'examples', 'cluster-dump.yaml'),
        'all-namespaces': 'true',
        'report-file': 'report.json'
      },
      { cwd: workspace }
    )
    expect(result.code).toBe(2)
    const errors = result.stdout.split('\n').filter((line) => line.startsWith('::error'))
    expect(errors).toEqual([
      '::error::route-gate: Invalid report-file "report.json": a symbolic link; route-gate never writes through one'
    ])
    expect(await readFile(bashrc, 'utf8')).toBe('alias ll="ls -l"\n')
    expect((await stat(bashrc)).mode & 0o777).toBe(0o644)
  })
})

// dist/ is what users run, and the minified bundle keeps no license comments: every package esbuild
// puts into it must have its notice in dist/licenses.txt, as that package ships it.
import { readdir, readFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'
import { BUILDS } from '../../scripts/bundle-options.ts'
import { REPO } from '../helpers/action.ts'

describe('dist/licenses.txt', () => {
  it('holds the name, version and license file of every bundled package', async () => {
    const inputs: string[] = []
    for (const options of BUILDS) {
      const { metafile } = await build({
        ...options,
        absWorkingDir: REPO,
        outdir: path.join(os.tmpdir(), 'route-gate-licenses-check'),
        write: false,
        logLevel: 'silent'
      })
      inputs.push(...Object.keys(metafile.inputs))
    }
    const dirs = new Set(
      inputs.flatMap((input) => {
        const at = input.lastIndexOf('node_modules/')
        if (at < 0) return []
        const [scope, name] = input.slice(at + 'node_modules/'.length).split('/')
        return [
          input.slice(0, at) + `node_modules/${scope!.startsWith('@') ? `${scope}/${name}` : scope}`
        ]
      })
    )
    // client-node, yaml, js-yaml, the Actions toolkit and what they depend on
    expect(dirs.size).toBeGreaterThan(20)
    const text = await readFile(path.join(REPO, 'dist', 'licenses.txt'), 'utf8')
    let withFile = 0
    for (const dir of dirs) {
      const pkg = JSON.parse(await readFile(path.join(REPO, dir, 'package.json'), 'utf8')) as {
        name: string
        version: string
      }
      expect(text, dir).toContain(`${pkg.name} ${pkg.version} (`)
      const license = (await readdir(path.join(REPO, dir))).find((f) => /^licen[cs]e/i.test(f))
      if (license === undefined) continue
      withFile++
      const notice = (await readFile(path.join(REPO, dir, license), 'utf8')).trim()
      expect(text, `${dir}/${license}`).toContain(notice)
    }
    expect(withFile).toBeGreaterThan(20)
  })
})

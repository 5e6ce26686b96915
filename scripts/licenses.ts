// The license notices of every package esbuild put into dist/: the bundle is what users run, and the
// minified code keeps none of the notices (legalComments: 'none'), so they ship in dist/licenses.txt.
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'

export interface BundledPackage {
  name: string
  version: string
  /** the package.json `license` field, as the package states it */
  license: string
  /** the package's own license (or notice) files, in name order */
  files: { name: string; text: string }[]
}

interface Metafile {
  inputs: Record<string, unknown>
}

const NOTICE_FILE = /^(licen[cs]e|copying|notice)(\b|[-._])/i

/** The directory of the package an input belongs to: the path up to the last node_modules/<name>. */
export function packageDirOf(input: string): string | undefined {
  const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input)
  return match?.[1]
}

export async function bundledPackages(metafile: Metafile, root: string): Promise<BundledPackage[]> {
  const dirs = new Set<string>()
  for (const input of Object.keys(metafile.inputs)) {
    const dir = packageDirOf(input)
    if (dir !== undefined) dirs.add(dir)
  }
  const packages = await Promise.all([...dirs].map((dir) => readPackage(path.resolve(root, dir))))
  return packages.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}

async function readPackage(dir: string): Promise<BundledPackage> {
  const manifest = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as {
    name: string
    version: string
    license?: string
  }
  const names = (await readdir(dir)).filter((name) => NOTICE_FILE.test(name)).sort()
  const files = await Promise.all(
    names.map(async (name) => ({ name, text: await readFile(path.join(dir, name), 'utf8') }))
  )
  return {
    name: manifest.name,
    version: manifest.version,
    license: manifest.license ?? 'no license field',
    files
  }
}

const RULE = '-'.repeat(80)

export function renderLicenses(packages: BundledPackage[]): string {
  const sections = packages.map((p) => {
    const head = `${p.name} ${p.version} (${p.license})`
    if (p.files.length === 0) return `${head}\n\nThe package ships no license file.`
    return [head, ...p.files.map((f) => `${f.name}:\n\n${f.text.trim()}`)].join('\n\n')
  })
  return (
    [
      'route-gate bundles these packages into dist/ (npm run bundle). Their license notices follow.',
      ...sections
    ].join(`\n\n${RULE}\n\n`) + '\n'
  )
}

// Builds the committed dist/: the entry points dist/index.js (the Action) and dist/cli.js (the CLI),
// the chunks they load on demand (dist/chunks/), and dist/licenses.txt with the notices of every
// bundled package. dist/ is emptied first so that no chunk of an earlier build lingers.
import { chmod, rm, writeFile } from 'node:fs/promises'
import { build } from 'esbuild'
import { BUILDS } from './bundle-options.ts'
import { bundledPackages, renderLicenses } from './licenses.ts'

await rm('dist', { recursive: true, force: true })
const inputs = {}
for (const options of BUILDS) Object.assign(inputs, (await build(options)).metafile.inputs)
await writeFile('dist/licenses.txt', renderLicenses(await bundledPackages({ inputs }, '.')))
await chmod('dist/cli.js', 0o755)

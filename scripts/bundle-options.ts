// How dist/ is built, shared by the bundle script and the test that checks dist/licenses.txt.
import type { BuildOptions } from 'esbuild'
import { builtinsPlugin } from './builtins-plugin.ts'

// client-node bundles CommonJS dependencies that call require(); ESM output needs one.
const banner = {
  js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);"
}

const COMMON = {
  outdir: 'dist',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'esm',
  banner,
  legalComments: 'none',
  logLevel: 'warning',
  minify: true,
  keepNames: true,
  splitting: true,
  sourcemap: false,
  metafile: true,
  plugins: [builtinsPlugin]
} satisfies BuildOptions

// Two builds, the Action and the CLI, each loading the rest on demand: printing a version, the help
// or an input error, or judging a dump, never loads the cluster client or the GitHub client. Built
// apart, so that the code they share does not split the CLI's offline path into a chunk per set of
// faces that use it: each file a module loads costs a resolve, a read and a link. Chunks are named
// by content, so dist/ stays reproducible and a chunk both builds make is the same file.
export const BUILDS: (BuildOptions & { metafile: true })[] = [
  { ...COMMON, entryPoints: { index: 'src/index.ts' } },
  { ...COMMON, entryPoints: { cli: 'src/cli.ts' } }
]

// How dist/ is built, shared by the bundle script and the test that checks dist/licenses.txt.
import type { BuildOptions } from 'esbuild'

// client-node bundles CommonJS dependencies that call require(); ESM output needs one.
const banner = {
  js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);"
}

// Two entry points (the Action and the CLI) that load the rest on demand: printing a version, the
// help or an input error, or judging a dump, never loads the cluster client or the GitHub client.
// Chunks are shared between the two faces and named by content, so dist/ stays reproducible.
export const BUILD_OPTIONS = {
  entryPoints: { index: 'src/index.ts', cli: 'src/cli.ts' },
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
  metafile: true
} satisfies BuildOptions

// Builds the two committed entry points: dist/index.js (the Action) and dist/cli.js (the CLI).
import { build } from 'esbuild'

// client-node bundles CommonJS dependencies that call require(); ESM output needs one.
const banner = {
  js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);"
}

await build({
  entryPoints: { index: 'src/index.ts', cli: 'src/cli.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node24',
  format: 'esm',
  banner,
  legalComments: 'none',
  logLevel: 'warning',
  minify: true,
  keepNames: true,
  splitting: false,
  sourcemap: false
})

const { chmod } = await import('node:fs/promises')
await chmod('dist/cli.js', 0o755)

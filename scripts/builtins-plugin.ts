// An esbuild plugin: Node's own modules are taken with process.getBuiltinModule, not imported.
// Node's ESM facade of a built-in module reads every one of its exports when it is imported, so
// `import { parseArgs } from 'node:util'` also loads worker_threads, streams and util's diff, about
// 7 ms of a 100 ms start. The bundle reads only the exports it names, each once, where it is loaded.
import { builtinModules, isBuiltin } from 'node:module'
import path from 'node:path'
import type { Plugin } from 'esbuild'

const NAMESPACE = 'node-builtin'

// These run before the start-up check refuses an old Node, and process.getBuiltinModule arrived in
// Node 20.16 and 22.3: ordinary imports here, so an older Node still gets that one line.
const BEFORE_NODE_CHECK = [
  'src/runtime/start-up.ts',
  'src/runtime/exit.ts',
  'src/runtime/version.ts'
]

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/

// The cluster layer and the packages (client-node is loaded on demand) get facades of their own: a
// facade the offline path shared with them would be split by esbuild into a chunk of its own, one
// more file for every offline command to load.
const APART = [`src${path.sep}cluster${path.sep}`, `node_modules${path.sep}`]
const AREA = '?apart'

/** The module's source: the built-in once, then one export per name, dropped when nothing uses it. */
async function facade(id: string): Promise<string> {
  const names = Object.keys((await import(id)) as object).filter(
    (name) => name !== 'default' && IDENTIFIER.test(name)
  )
  return [
    `const builtin = /* @__PURE__ */ process.getBuiltinModule(${JSON.stringify(id)})`,
    'export default builtin',
    ...names.map((name) => `export const ${name} = /* @__PURE__ */ (() => builtin.${name})()`)
  ].join('\n')
}

export const builtinsPlugin: Plugin = {
  name: 'builtins-without-esm-facade',
  setup(build) {
    const root = build.initialOptions.absWorkingDir ?? process.cwd()
    const bare = new RegExp(
      `^(node:)?(${builtinModules.map((m) => m.replace(/\//g, '\\/')).join('|')})$`
    )
    build.onResolve({ filter: bare }, (args) => {
      const id = args.path.startsWith('node:') ? args.path : `node:${args.path}`
      if (!isBuiltin(id)) return undefined
      // require() never went through the facade
      if (args.kind !== 'import-statement') return { path: args.path, external: true }
      if (BEFORE_NODE_CHECK.includes(path.relative(root, args.importer))) {
        return { path: args.path, external: true }
      }
      const importer = path.relative(root, args.importer)
      const area = APART.some((dir) => importer.startsWith(dir)) ? AREA : ''
      return { path: id + area, namespace: NAMESPACE }
    })
    build.onLoad({ filter: /.*/, namespace: NAMESPACE }, async (args) => ({
      contents: await facade(args.path.replace(AREA, '')),
      loader: 'js'
    }))
  }
}

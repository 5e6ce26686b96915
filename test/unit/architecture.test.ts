// The code's shape, as docs/architecture.md states it: folders import one way and never in a circle,
// only src/cluster reaches client-node (through its public API), src/ holds only entry points, file
// names say one job each, files and functions stay short.
// Parsed with TypeScript, so comments and strings never count as imports or code.
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { BUILDS } from '../../scripts/bundle-options.ts'

const SRC = path.resolve(import.meta.dirname, '../../src')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(full)
    return entry.name.endsWith('.ts') ? [full] : []
  })
}

const FILES = sourceFiles(SRC).map((file) => ({
  file,
  rel: path.relative(SRC, file),
  source: ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
}))

interface Import {
  /** the module, relative to src for a file of src; a package name otherwise */
  target: string
  /** `import type`: erased from the bundle, still a dependency of the reader */
  typeOnly: boolean
}

/** Every module a file imports or re-exports, statically or with import(), resolved under src. */
function importsOf(source: ts.SourceFile, file: string): Import[] {
  const found: Import[] = []
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier !== undefined &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const typeOnly = ts.isImportDeclaration(node)
        ? node.importClause?.isTypeOnly === true
        : node.isTypeOnly
      found.push({ target: node.moduleSpecifier.text, typeOnly })
    }
    if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] !== undefined &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push({ target: node.arguments[0].text, typeOnly: false })
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found.map(({ target, typeOnly }) => ({
    typeOnly,
    target: target.startsWith('.')
      ? path.relative(SRC, path.resolve(path.dirname(file), target))
      : target
  }))
}

const targetsOf = (source: ts.SourceFile, file: string): string[] =>
  importsOf(source, file).map((i) => i.target)

/** The folder a file belongs to: probe's three parts are folders of their own; loose files are "src". */
function area(rel: string): string {
  const parts = rel.split(path.sep)
  if (parts.length === 1) return 'src'
  return parts[0] === 'probe' ? `probe/${parts[1] ?? ''}` : (parts[0] ?? '')
}

const layer = (rel: string): string => rel.split(path.sep)[0] ?? ''

/**
 * What each folder may import besides itself, as docs/architecture.md draws it: arrows run one way.
 * `types` may be imported for their types alone.
 */
const MAY_IMPORT: Record<string, { code: string[]; types?: string[] }> = {
  runtime: { code: [] },
  model: { code: [] },
  rules: { code: ['model'] },
  wording: { code: ['model', 'rules'] },
  diagnose: { code: ['model', 'rules', 'wording'] },
  predict: { code: ['model', 'rules', 'wording'], types: ['read', 'inputs'] },
  'probe/rules': { code: ['model', 'rules'] },
  'probe/transport': { code: ['probe/rules', 'runtime'] },
  'probe/loop': { code: ['model', 'probe/rules', 'probe/transport'] },
  read: { code: ['model', 'runtime'] },
  cluster: { code: ['model', 'read', 'runtime'] },
  inputs: { code: ['model', 'probe/rules', 'runtime'] },
  report: { code: ['model'] },
  github: { code: ['model', 'report', 'runtime'], types: ['inputs'] },
  jobs: {
    code: ['runtime', 'model', 'rules', 'wording', 'diagnose', 'predict', 'read', 'inputs'],
    types: ['cluster']
  },
  cli: { code: ['runtime', 'model', 'read', 'inputs', 'cluster', 'report', 'jobs'] },
  action: { code: ['runtime', 'model', 'read', 'inputs', 'cluster', 'report', 'github', 'jobs'] },
  src: { code: ['runtime', 'cli', 'action'] }
}
// the jobs run the probe and render their reports
MAY_IMPORT.jobs?.code.push('probe/rules', 'probe/transport', 'probe/loop', 'report')

describe('layers', () => {
  it('every folder imports only the folders below it, as docs/architecture.md draws them', () => {
    const wrong = FILES.flatMap(({ file, rel, source }) => {
      const from = area(rel)
      const allowed = MAY_IMPORT[from]
      if (!allowed) return [`${rel}: its folder ${from} is not in the map`]
      return importsOf(source, file)
        .filter(({ target }) => !target.startsWith('..') && target.endsWith('.ts'))
        .filter(({ target, typeOnly }) => {
          const to = area(target)
          if (to === from || allowed.code.includes(to)) return false
          return !(typeOnly && allowed.types?.includes(to))
        })
        .map(({ target }) => `${rel} → ${target}`)
    })
    expect(wrong).toEqual([])
  })

  it('predict and probe import nothing from diagnose; model, rules and diagnose never import report', () => {
    const wrong = FILES.flatMap(({ file, rel, source }) =>
      targetsOf(source, file)
        .filter((target) => {
          const from = layer(rel)
          const to = layer(target)
          if (['predict', 'probe'].includes(from)) return to === 'diagnose' || to === 'report'
          if (['model', 'rules', 'wording', 'diagnose'].includes(from)) return to === 'report'
          if (from === 'report') return to === 'diagnose'
          return false
        })
        .map((target) => `${rel} → ${target}`)
    )
    expect(wrong).toEqual([])
  })

  it('only src/cluster imports @kubernetes/client-node', () => {
    const importers = FILES.filter(({ file, source }) =>
      targetsOf(source, file).some((t) => t.startsWith('@kubernetes/client-node'))
    ).map(({ rel }) => rel)
    expect(importers.length).toBeGreaterThan(0)
    expect(importers.filter((rel) => layer(rel) !== 'cluster')).toEqual([])
  })
})

describe('files', () => {
  it('no import cycle, type imports included (Tarjan over the import graph)', () => {
    const edges = new Map(
      FILES.map(({ file, rel, source }) => [
        rel,
        targetsOf(source, file).filter((t) => t.endsWith('.ts') && !t.startsWith('..'))
      ])
    )
    const cycles: string[][] = []
    const index = new Map<string, number>()
    const low = new Map<string, number>()
    const stack: string[] = []
    const onStack = new Set<string>()
    const connect = (node: string): void => {
      index.set(node, index.size)
      low.set(node, index.get(node) ?? 0)
      stack.push(node)
      onStack.add(node)
      for (const next of edges.get(node) ?? []) {
        if (!index.has(next)) {
          connect(next)
          low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0))
        } else if (onStack.has(next)) {
          low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0))
        }
      }
      if (low.get(node) !== index.get(node)) return
      const component: string[] = []
      for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
        onStack.delete(top)
        component.push(top)
        if (top === node) break
      }
      const selfLoop = (edges.get(node) ?? []).includes(node)
      if (component.length > 1 || selfLoop) cycles.push(component.sort())
    }
    for (const node of edges.keys()) if (!index.has(node)) connect(node)
    expect(cycles).toEqual([])
  })

  it('src/ holds only the entry points the bundle builds, six at most, beside its folders', () => {
    const entries = BUILDS.flatMap((build) =>
      Object.values(build.entryPoints as Record<string, string>)
    ).map((entry) => path.relative('src', entry))
    const loose = FILES.map(({ rel }) => rel).filter((rel) => !rel.includes(path.sep))
    expect(loose.length).toBeLessThanOrEqual(6)
    expect(loose.sort()).toEqual(entries.sort())
  })

  it('none is over 500 lines', () => {
    const long = FILES.filter(
      ({ source }) => source.getLineAndCharacterOfPosition(source.end).line + 1 > 500
    )
    expect(long.map(({ rel }) => rel)).toEqual([])
  })
})

describe('client-node', () => {
  // what the code wrote into client-node before it kept to the public API: an upgrade may rename
  // or drop any of these without notice
  const PRIVATE = new Set([
    'applyAuthorizationHeader',
    'authenticators',
    'execFn',
    'requestTimeoutMs'
  ])

  it('no private member of its objects is written, and no cast object is written to', () => {
    const writes: string[] = []
    for (const { file, rel, source } of FILES) {
      if (!targetsOf(source, file).some((t) => t.startsWith('@kubernetes/client-node'))) continue
      const visit = (node: ts.Node): void => {
        if (
          ts.isBinaryExpression(node) &&
          node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
          ts.isPropertyAccessExpression(node.left)
        ) {
          let target: ts.Expression = node.left.expression
          while (ts.isParenthesizedExpression(target)) target = target.expression
          const where = `${rel}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`
          if (ts.isAsExpression(target)) writes.push(`${where} writes to a cast object`)
          if (PRIVATE.has(node.left.name.text) && !node.left.getText(source).includes('tuning.'))
            writes.push(`${where} writes ${node.left.name.text}`)
        }
        ts.forEachChild(node, visit)
      }
      visit(source)
    }
    expect(writes).toEqual([])
  })
})

describe('names', () => {
  it('no two files share a name among apply, run, explain, world and text', () => {
    const byName = new Map<string, string[]>()
    for (const { rel } of FILES) {
      const name = path.basename(rel, '.ts')
      byName.set(name, [...(byName.get(name) ?? []), rel])
    }
    const shared = ['apply', 'run', 'explain', 'world', 'text']
      .map((name) => byName.get(name) ?? [])
      .filter((files) => files.length > 1)
    expect(shared).toEqual([])
  })
})

describe('functions', () => {
  it('none is over 80 lines, unless a comment just before it says why', () => {
    const long: string[] = []
    for (const { rel, source } of FILES) {
      const visit = (node: ts.Node): void => {
        if (
          ts.isFunctionDeclaration(node) ||
          ts.isMethodDeclaration(node) ||
          ts.isArrowFunction(node) ||
          ts.isFunctionExpression(node)
        ) {
          const start = source.getLineAndCharacterOfPosition(node.getStart()).line
          const end = source.getLineAndCharacterOfPosition(node.getEnd()).line
          const comments = ts.getLeadingCommentRanges(source.text, node.getFullStart()) ?? []
          const why = comments.some((c) =>
            /longer than 80 lines because/i.test(source.text.slice(c.pos, c.end))
          )
          if (end - start + 1 > 80 && !why) {
            const name = (node as { name?: ts.Node }).name?.getText(source) ?? '(anonymous)'
            long.push(`${rel}:${start + 1} ${name} (${end - start + 1} lines)`)
          }
        }
        ts.forEachChild(node, visit)
      }
      visit(source)
    }
    expect(long).toEqual([])
  })
})

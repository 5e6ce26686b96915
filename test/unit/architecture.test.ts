// The code's shape, as docs/architecture.md states it: layers import one way, only src/cluster
// reaches client-node (through its public API), file names say one job each, functions stay short.
// Parsed with TypeScript, so comments and strings never count as imports or code.
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

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

/** Every module a file imports or re-exports, statically or with import(), resolved under src. */
function importsOf(source: ts.SourceFile, file: string): string[] {
  const found: string[] = []
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier !== undefined &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push(node.moduleSpecifier.text)
    }
    if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] !== undefined &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push(node.arguments[0].text)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found.map((spec) =>
    spec.startsWith('.') ? path.relative(SRC, path.resolve(path.dirname(file), spec)) : spec
  )
}

const layer = (rel: string): string => rel.split(path.sep)[0] ?? ''

describe('layers', () => {
  it('model, diagnose, predict and probe never import report; report never imports diagnose', () => {
    const wrong = FILES.flatMap(({ file, rel, source }) =>
      importsOf(source, file)
        .filter((target) => {
          const from = layer(rel)
          const to = layer(target)
          if (['model', 'diagnose', 'predict', 'probe'].includes(from)) return to === 'report'
          if (from === 'report') return to === 'diagnose'
          return false
        })
        .map((target) => `${rel} → ${target}`)
    )
    expect(wrong).toEqual([])
  })

  it('model imports nothing outside itself; diagnose only model', () => {
    const wrong = FILES.flatMap(({ file, rel, source }) =>
      importsOf(source, file)
        .filter((t) => !t.startsWith('node:') && !t.startsWith('..'))
        .filter((target) => {
          const from = layer(rel)
          if (from === 'model') return layer(target) !== 'model'
          if (from === 'diagnose') return !['model', 'diagnose'].includes(layer(target))
          return false
        })
        .map((target) => `${rel} → ${target}`)
    )
    expect(wrong).toEqual([])
  })

  it('only src/cluster imports @kubernetes/client-node', () => {
    const importers = FILES.filter(({ file, source }) =>
      importsOf(source, file).some((t) => t.startsWith('@kubernetes/client-node'))
    ).map(({ rel }) => rel)
    expect(importers.length).toBeGreaterThan(0)
    expect(importers.filter((rel) => layer(rel) !== 'cluster')).toEqual([])
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
      if (!importsOf(source, file).some((t) => t.startsWith('@kubernetes/client-node'))) continue
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

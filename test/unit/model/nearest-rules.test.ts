// "Did you mean": the names offered for a name that matched nothing.
import { describe, expect, it } from 'vitest'
import { NameIndex, nearestNames, oneOf } from '../../../src/model/nearest.ts'
import { compareText } from '../../../src/model/route-id.ts'

describe('nearestNames', () => {
  it('never offers the name itself, and offers at most three, closest first', () => {
    expect(nearestNames('cart', ['cart', 'carts', 'card', 'cat', 'art', 'checkout'])).toEqual([
      'art',
      'card',
      'carts'
    ])
    expect(nearestNames('cart', ['cart'])).toEqual([])
  })

  it('measures edit distance: a transposition costs two, beyond the budget of a short name', () => {
    expect(nearestNames('web', ['wbe', 'edge'])).toEqual(['wbe'])
    expect(nearestNames('checkout', ['chekcout', 'checkuot-svc', 'payments'])).toEqual(['chekcout'])
    expect(nearestNames('payments', ['payment', 'paymnets', 'pay'], 2)).toEqual([
      'payment',
      'paymnets'
    ])
  })

  it('ranks names containing the other by their whole distance, beyond the budget too', () => {
    expect(nearestNames('cart', ['cart-frontend-service', 'cart-v2', 'cart-svc'])).toEqual([
      'cart-v2',
      'cart-svc',
      'cart-frontend-service'
    ])
  })
})

// the rule as the plain scan it is: every name, its edit distance, filtered and sorted
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1)
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution))
    }
    previous = current
  }
  return previous[b.length] ?? 0
}

function scan(name: string, candidates: string[], limit = 3): string[] {
  const wanted = name.toLowerCase()
  const budget = Math.max(2, Math.floor(wanted.length / 3))
  return [...new Set(candidates)]
    .filter((candidate) => candidate !== name)
    .map((candidate) => {
      const lower = candidate.toLowerCase()
      const contains = lower.includes(wanted) || wanted.includes(lower)
      return { candidate, distance: editDistance(wanted, lower), contains }
    })
    .filter((c) => c.distance <= budget || c.contains)
    .sort((a, b) => a.distance - b.distance || compareText(a.candidate, b.candidate))
    .slice(0, limit)
    .map((c) => c.candidate)
}

// a small seeded generator, so that a failure names a case that can be run again
function generator(seed: number): () => number {
  let state = seed
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31
    return state / 2 ** 31
  }
}

function randomName(next: () => number, alphabet: string): string {
  const length = Math.floor(next() * 12)
  return Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join('')
}

describe('NameIndex', () => {
  it('suggests exactly what a scan of every name would, for 6,000 seeded names and queries', () => {
    const next = generator(36)
    for (let round = 0; round < 60; round++) {
      // a small alphabet makes near names common; upper case checks the lower-case comparison
      const alphabet = round % 2 === 0 ? 'abcAB-1' : 'abcdefghij-0123'
      const names = Array.from({ length: 100 }, () => randomName(next, alphabet))
      const index = new NameIndex(names)
      for (let query = 0; query < 100; query++) {
        const name =
          next() < 0.5 ? randomName(next, alphabet) : (names[Math.floor(next() * 100)] ?? '')
        const keep = (candidate: string): boolean => candidate.length % 3 !== round % 3
        const limit = 1 + (query % 4)
        expect(index.nearest(name, limit), `round ${round}: ${JSON.stringify(name)}`).toEqual(
          scan(name, names, limit)
        )
        expect(index.nearest(name, 2, keep)).toEqual(scan(name, names.filter(keep), 2))
        expect(nearestNames(name, names, limit)).toEqual(scan(name, names, limit))
      }
    }
  })

  it('ranks only a few of 10,000 look-alike names, and still finds the nearest', () => {
    const names = Array.from({ length: 10_000 }, (_, i) => `tenant-${i}-svc`)
    const all = [...names, 'tenant-77-svc-v2']
    const index = new NameIndex(all)
    let ranked = 0
    const keep = (): boolean => {
      ranked++
      return true
    }
    expect(index.nearest('tenant-77-svc', 3, keep)).toEqual(scan('tenant-77-svc', all))
    expect(ranked).toBeGreaterThan(0)
    expect(ranked).toBeLessThan(200)
  })
})

describe('oneOf', () => {
  it('quotes each name and joins them with "or"', () => {
    expect(oneOf([])).toBe('')
    expect(oneOf(['web'])).toBe('"web"')
    expect(oneOf(['web', 'edge'])).toBe('"web" or "edge"')
    expect(oneOf(['a', 'b', 'c'])).toBe('"a", "b" or "c"')
  })
})

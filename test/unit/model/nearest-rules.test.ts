// "Did you mean": the names offered for a name that matched nothing.
import { describe, expect, it } from 'vitest'
import { nearestNames, oneOf } from '../../../src/model/nearest.ts'

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
})

describe('oneOf', () => {
  it('quotes each name and joins them with "or"', () => {
    expect(oneOf([])).toBe('')
    expect(oneOf(['web'])).toBe('"web"')
    expect(oneOf(['web', 'edge'])).toBe('"web" or "edge"')
    expect(oneOf(['a', 'b', 'c'])).toBe('"a", "b" or "c"')
  })
})

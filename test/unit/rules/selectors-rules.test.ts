// Label selectors as a listener's allowedRoutes.namespaces.selector uses them: how the selector is
// described in the evidence, which requirements a namespace fails, and the kubectl label arguments
// (key=value, key-) that would make it match.
import { describe, expect, it } from 'vitest'
import { checkSelector } from '../../../src/rules/selectors.ts'
import type { SelectorCheck } from '../../../src/rules/selectors.ts'
import { describeSelector, describeUnmet } from '../../../src/wording/selectors.ts'

/** The check with its unmet requirements said as the diagnosis says them. */
const said = (check: SelectorCheck) => ({ ...check, unmet: check.unmet.map(describeUnmet) })

describe('describeSelector', () => {
  it('matchLabels and every matchExpressions operator, in order', () => {
    expect(
      describeSelector({
        matchLabels: { team: 'web' },
        matchExpressions: [
          { key: 'env', operator: 'In', values: ['prod', 'staging'] },
          { key: 'tier', operator: 'NotIn', values: ['batch'] },
          { key: 'gateway-access', operator: 'Exists' },
          { key: 'legacy', operator: 'DoesNotExist' }
        ]
      })
    ).toBe(
      'team=web, env In (prod, staging), tier NotIn (batch), gateway-access Exists, legacy DoesNotExist'
    )
  })

  it('an empty selector selects every namespace', () => {
    expect(describeSelector({})).toBe('(empty selector: every namespace)')
    expect(describeSelector(undefined)).toBe('(empty selector: every namespace)')
  })

  it('an expression missing its key or operator is still shown', () => {
    expect(describeSelector({ matchExpressions: [{ values: ['a'] }] })).toBe('? ? (a)')
  })
})

describe('checkSelector', () => {
  it('matchLabels: a missing label, and a label with another value', () => {
    expect(said(checkSelector({ matchLabels: { team: 'web' } }, {}))).toEqual({
      matches: false,
      unmet: ['label team=web is missing'],
      labelChanges: ['team=web']
    })
    expect(said(checkSelector({ matchLabels: { team: 'web' } }, { team: 'shop' }))).toEqual({
      matches: false,
      unmet: ['label team is "shop", not "web"'],
      labelChanges: ['team=web']
    })
    expect(said(checkSelector({ matchLabels: { team: 'web' } }, { team: 'web' }))).toEqual({
      matches: true,
      unmet: [],
      labelChanges: []
    })
  })

  it('In: a label not set or set to a value not listed; the first value is the one to set', () => {
    const selector = {
      matchExpressions: [{ key: 'env', operator: 'In', values: ['prod', 'staging'] }]
    }
    expect(said(checkSelector(selector, {}))).toEqual({
      matches: false,
      unmet: ['label env must be one of (prod, staging); it is not set'],
      labelChanges: ['env=prod']
    })
    expect(said(checkSelector(selector, { env: 'dev' }))).toEqual({
      matches: false,
      unmet: ['label env must be one of (prod, staging); it is "dev"'],
      labelChanges: ['env=prod']
    })
    expect(checkSelector(selector, { env: 'staging' }).matches).toBe(true)
  })

  it('NotIn: refuses a listed value only; an unset label matches', () => {
    const selector = {
      matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['batch', 'dev'] }]
    }
    expect(said(checkSelector(selector, { tier: 'dev' }))).toEqual({
      matches: false,
      unmet: ['label tier must not be one of (batch, dev); it is "dev"'],
      labelChanges: ['tier-']
    })
    expect(checkSelector(selector, {}).matches).toBe(true)
    expect(checkSelector(selector, { tier: 'web' }).matches).toBe(true)
  })

  it('Exists and DoesNotExist', () => {
    const exists = { matchExpressions: [{ key: 'gateway-access', operator: 'Exists' }] }
    expect(said(checkSelector(exists, {}))).toEqual({
      matches: false,
      unmet: ['label gateway-access must be set'],
      labelChanges: ['gateway-access=true']
    })
    expect(checkSelector(exists, { 'gateway-access': '' }).matches).toBe(true)
    const absent = { matchExpressions: [{ key: 'legacy', operator: 'DoesNotExist' }] }
    expect(said(checkSelector(absent, { legacy: 'yes' }))).toEqual({
      matches: false,
      unmet: ['label legacy must not be set; it is "yes"'],
      labelChanges: ['legacy-']
    })
    expect(checkSelector(absent, {}).matches).toBe(true)
  })

  it('an empty or absent selector matches every namespace', () => {
    expect(said(checkSelector({}, {}))).toEqual({ matches: true, unmet: [], labelChanges: [] })
    expect(checkSelector(undefined, { team: 'web' }).matches).toBe(true)
  })
})

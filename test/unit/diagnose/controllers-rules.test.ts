// A parent without a controllerName (no status entry was judged) is labelled generically, never
// as "null" or an empty string in a sentence.
import { describe, expect, it } from 'vitest'
import { controllerLabel } from '../../../src/wording/controllers.ts'

describe('controllerLabel', () => {
  it.each([null, undefined, ''])(
    'labels a missing controllerName (%s) as "the controller"',
    (name) => {
      expect(controllerLabel(name)).toBe('the controller')
    }
  )
})

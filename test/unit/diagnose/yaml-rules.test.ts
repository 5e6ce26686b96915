// A suggested fix is pasted into a manifest: every name in it must read back as the same string,
// with the YAML 1.2 core schema and with YAML 1.1 (kubectl's parser), and stay plain where it can.
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { yamlScalar } from '../../../src/report/object-yaml.ts'

const readBack = (value: string, version: '1.1' | '1.2'): unknown =>
  (parse(`name: ${yamlScalar(value)}\n`, { version }) as { name: unknown }).name

describe('yamlScalar', () => {
  it.each([
    '80',
    '8080',
    '1.10',
    '2024.1',
    '1e3',
    '1E3',
    '1e-3',
    '0x1f',
    '0o17',
    '0b101',
    '017',
    'true',
    'False',
    'null',
    'NULL',
    '~',
    'yes',
    'no',
    'on',
    'Off',
    'y',
    'n',
    'Y',
    '',
    'has space',
    'colon: here',
    '#hash',
    '-dash',
    '*alias',
    'quote"d'
  ])('quotes %j so that it reads back as the same string', (value) => {
    expect(readBack(value, '1.2')).toBe(value)
    expect(readBack(value, '1.1')).toBe(value)
  })

  it.each([
    'web',
    'shop-edge',
    'notifications',
    'online-store',
    'offers',
    'yesterday',
    'nullable',
    'v2',
    '2fa-gateway',
    'gateway.networking.k8s.io',
    'kubernetes.io/h2c',
    'infra'
  ])('writes the ordinary name %s plain', (value) => {
    expect(yamlScalar(value)).toBe(value)
    expect(readBack(value, '1.2')).toBe(value)
    expect(readBack(value, '1.1')).toBe(value)
  })

  it('writes numbers (ports) as numbers', () => {
    expect(yamlScalar(8080)).toBe('8080')
  })
})

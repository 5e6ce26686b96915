import { describe, expect, it } from 'vitest'
import { sourceLink, sourceLinksFrom } from '../../../src/report/source-link.ts'

const sha = '0123456789abcdef0123456789abcdef01234567'
const env = {
  GITHUB_SERVER_URL: 'https://github.com',
  GITHUB_REPOSITORY: 'acme/shop.web',
  GITHUB_SHA: sha
}

describe('sourceLinksFrom', () => {
  it("takes the runner's server, repository and commit", () => {
    expect(sourceLinksFrom(env)).toEqual({
      server: 'https://github.com',
      repository: 'acme/shop.web',
      sha
    })
    expect(sourceLinksFrom({ ...env, GITHUB_SERVER_URL: 'https://ghe.example.com/' })?.server).toBe(
      'https://ghe.example.com'
    )
  })

  it('gives none outside GitHub or for values that could steer the link elsewhere', () => {
    expect(sourceLinksFrom({})).toBeUndefined()
    for (const bad of [
      { GITHUB_SERVER_URL: 'javascript:alert(1)' },
      { GITHUB_SERVER_URL: 'not a url' },
      { GITHUB_SERVER_URL: 'https://github.com/?x=)' },
      { GITHUB_SERVER_URL: 'https://user:pw@github.com' },
      { GITHUB_REPOSITORY: 'acme/shop)[x](https://evil.example' },
      { GITHUB_REPOSITORY: 'acme' },
      { GITHUB_SHA: 'main' },
      { GITHUB_SHA: `${sha})` }
    ])
      expect(sourceLinksFrom({ ...env, ...bad }), JSON.stringify(bad)).toBeUndefined()
  })
})

describe('sourceLink', () => {
  const links = sourceLinksFrom(env)!

  it('links the line of a repository-relative path at the commit', () => {
    expect(sourceLink(links, { file: 'deploy/routes.yaml', line: 12 })).toBe(
      `https://github.com/acme/shop.web/blob/${sha}/deploy/routes.yaml#L12`
    )
    expect(sourceLink(links, { file: './deploy/routes.yaml', line: 3 })).toBe(
      `https://github.com/acme/shop.web/blob/${sha}/deploy/routes.yaml#L3`
    )
  })

  it('percent-encodes every character that could end or bend the link', () => {
    const url = sourceLink(links, { file: "k8s/a b/(x)'!*#[y]?.yaml", line: 1 })
    expect(url).toBe(
      `https://github.com/acme/shop.web/blob/${sha}/k8s/a%20b/%28x%29%27%21%2A%23%5By%5D%3F.yaml#L1`
    )
  })

  it('does not link what is no file of the repository', () => {
    for (const file of ['', '-', '/abs/routes.yaml', 'C:/x.yaml', '../x.yaml', 'a//b.yaml'])
      expect(sourceLink(links, { file, line: 1 }), file).toBeUndefined()
  })
})

// A Route's manifest file:line as a link to that line at the commit the workflow runs on:
// GITHUB_SERVER_URL/GITHUB_REPOSITORY/blob/GITHUB_SHA/path#Lline. The variables come from the runner,
// the path from the user's inputs; each part is checked or percent-encoded, so no part can end the
// Markdown link or point it anywhere but the file in this repository.

export interface SourceLinks {
  server: string
  repository: string
  sha: string
}

/** The link base from a runner's environment; undefined outside GitHub or with unusable values. */
export function sourceLinksFrom(env: NodeJS.ProcessEnv): SourceLinks | undefined {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repository, GITHUB_SHA: sha } = env
  if (server === undefined || repository === undefined || sha === undefined) return undefined
  let url: URL
  try {
    url = new URL(server)
  } catch {
    return undefined
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '')
    return undefined
  if (!/^[\w.-]+\/[\w.-]+$/.test(repository) || !/^[0-9a-f]{40}([0-9a-f]{24})?$/i.test(sha))
    return undefined
  return { server: url.href.replace(/\/+$/, ''), repository, sha }
}

// encodeURIComponent leaves !'()* alone; ( and ) would end a Markdown link
const encodeSegment = (segment: string): string =>
  encodeURIComponent(segment).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`
  )

/**
 * The URL of `file` at `line`, for a path relative to the repository root; undefined for a path
 * that leaves it (absolute, `..`) or that no file in a repository has (`-` for stdin).
 */
export function sourceLink(
  links: SourceLinks,
  source: { file: string; line: number }
): string | undefined {
  const segments = source.file.replace(/\\/g, '/').split('/')
  if (
    source.file === '' ||
    source.file === '-' ||
    source.file.startsWith('/') ||
    /^[A-Za-z]:/.test(source.file) ||
    segments.some((s) => s === '..' || s === '')
  )
    return undefined
  const path = segments
    .filter((s) => s !== '.')
    .map(encodeSegment)
    .join('/')
  const repository = links.repository.split('/').map(encodeSegment).join('/')
  return `${links.server}/${repository}/blob/${links.sha}/${path}#L${Math.max(1, Math.trunc(source.line))}`
}

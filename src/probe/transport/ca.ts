// The traffic-ca input: PEM content as given, or the PEM file it names. Checked before anything is
// applied, so a wrong path or a file that holds no certificate is an input error.
import { X509Certificate } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { InputError } from '../../runtime/errors.ts'

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g

export async function loadTrafficCa(value: string, cwd: string): Promise<string> {
  let pem = value
  let where = 'traffic-ca'
  if (!value.includes('-----BEGIN')) {
    where = `traffic-ca file ${value}`
    try {
      pem = await readFile(resolve(cwd, value), 'utf8')
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'unreadable'
      throw new InputError(
        `Invalid traffic-ca "${value}": not PEM content, and no readable file at that path (${code})`
      )
    }
  }
  const blocks = pem.match(PEM_BLOCK) ?? []
  if (blocks.length === 0) {
    throw new InputError(
      `Invalid ${where}: it holds no PEM certificate (-----BEGIN CERTIFICATE-----)`
    )
  }
  blocks.forEach((block, i) => {
    try {
      new X509Certificate(block)
    } catch {
      throw new InputError(
        `Invalid ${where}: certificate ${i + 1} is not a valid X.509 certificate`
      )
    }
  })
  return blocks.join('\n')
}

// Files route-gate writes for the user (the report, the monitor's state): private to the user, and a
// path that cannot be written is the user's input to fix (exit 2), not a failed gate.
import { writeFile } from 'node:fs/promises'
import { InputError } from './errors.ts'

export async function writeUserFile(file: string, text: string, input: string): Promise<void> {
  try {
    await writeFile(file, text, { mode: 0o600 })
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error)
    throw new InputError(`Invalid ${input} "${file}": cannot write it (${reason})`)
  }
}

// The verdict is out once the report is written: sockets still closing (an aborted watch, keep-alive
// connections) must not delay a deployment pipeline. Exit as soon as stdout and stderr have flushed.
import module from 'node:module'

export async function exitWhenFlushed(code: number): Promise<never> {
  process.exitCode = code
  await Promise.all(
    [process.stdout, process.stderr].map(
      (stream) => new Promise<void>((resolve) => stream.write('', () => resolve()))
    )
  )
  // process.exit() skips the compile cache's own write at exit; only modules compiled afresh in this
  // run are written, so a warm run writes nothing
  module.flushCompileCache()
  process.exit(code)
}

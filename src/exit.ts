// The verdict is out once the report is written: sockets still closing (an aborted watch, keep-alive
// connections) must not delay a deployment pipeline. Exit as soon as stdout and stderr have flushed.
export async function exitWhenFlushed(code: number): Promise<never> {
  process.exitCode = code
  await Promise.all(
    [process.stdout, process.stderr].map(
      (stream) => new Promise<void>((resolve) => stream.write('', () => resolve()))
    )
  )
  process.exit(code)
}

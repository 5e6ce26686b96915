#!/usr/bin/env node
// The CLI's entry point: the start-up checks, then the command, loaded only once Node is known to
// run it (an old Node gets one line instead of a SyntaxError quoting minified code). --version is
// answered here, from what the start-up already loaded.
import { exitWhenFlushed } from './exit.ts'
import { startUp } from './start-up.ts'
import { TOOL_VERSION } from './version.ts'

startUp('cli')
if (process.argv[2] === '--version') {
  process.stdout.write(`${TOOL_VERSION}\n`)
  await exitWhenFlushed(0)
}
const { main } = await import('./command.ts')
await exitWhenFlushed(await main(process.argv.slice(2)))

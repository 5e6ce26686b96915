#!/usr/bin/env node
// The CLI's entry point: the start-up checks, then the command, loaded only once Node is known to
// run it (an old Node gets one line instead of a SyntaxError quoting minified code). --version is
// answered here, from what the start-up already loaded.
import { exitWhenFlushed } from './runtime/exit.ts'
import { startUp } from './runtime/start-up.ts'
import { TOOL_VERSION } from './runtime/version.ts'

startUp('cli')
if (process.argv[2] === '--version') {
  process.stdout.write(`${TOOL_VERSION}\n`)
  await exitWhenFlushed(0)
}
const { main } = await import('./cli/command.ts')
await exitWhenFlushed(await main(process.argv.slice(2)))

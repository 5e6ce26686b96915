#!/usr/bin/env node
// The CLI's entry point: the start-up checks, then the command, loaded only once Node is known to
// run it (an old Node gets one line instead of a SyntaxError quoting minified code).
import { exitWhenFlushed } from './exit.ts'
import { startUp } from './start-up.ts'

startUp('cli')
const { main } = await import('./command.ts')
await exitWhenFlushed(await main(process.argv.slice(2)))

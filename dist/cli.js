#!/usr/bin/env node
import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{a as i,b as r}from"./chunks/chunk-EHTRRW5T.js";import{a as t}from"./chunks/chunk-KBM2CLE3.js";import"./chunks/chunk-TYGUZCRS.js";import"./chunks/chunk-5I7R3ZRB.js";r("cli");process.argv[2]==="--version"&&(process.stdout.write(`${t}
`),await i(0));var{main:o}=await import("./chunks/command-N7UP7TTO.js");await i(await o(process.argv.slice(2)));

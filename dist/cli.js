#!/usr/bin/env node
import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{a as i,b as r}from"./chunks/chunk-DQ5YPIWM.js";import{a as t}from"./chunks/chunk-FXGDQ35O.js";import"./chunks/chunk-U7O2OSJZ.js";import"./chunks/chunk-5I7R3ZRB.js";r("cli");process.argv[2]==="--version"&&(process.stdout.write(`${t}
`),await i(0));var{main:o}=await import("./chunks/command-SKOATIT5.js");await i(await o(process.argv.slice(2)));

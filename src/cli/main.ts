#!/usr/bin/env node
/** The `headway` command line. */
console.error('usage: headway serve [options]   (the reference server lands with the server issue)');
process.exitCode = 2;

#!/usr/bin/env node
// Launcher of the `keel` command: takes the stop signals first (bin/unheld-signals.js), registers
// tsx so the TypeScript sources run without a build step, sets Keel's V8 flags
// (config/v8-tuning.ts), then hands over to config/cli/main.ts. Works from any directory (npx
// keel, npm link).
import { fileURLToPath } from 'node:url';
import { exitOnUnheldSignals } from './unheld-signals.js';

exitOnUnheldSignals(process);
const { register } = await import('tsx/esm/api');
register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
const { applyKeelV8Flags } = await import(new URL('../config/v8-tuning.ts', import.meta.url).href);
applyKeelV8Flags();
await import(new URL('../config/cli/main.ts', import.meta.url).href);

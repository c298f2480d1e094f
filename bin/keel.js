#!/usr/bin/env node
// Launcher of the `keel` command: registers tsx so the TypeScript sources run without a build
// step, then hands over to config/cli/main.ts. Works from any directory (npx keel, npm link).
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
await import(new URL('../config/cli/main.ts', import.meta.url).href);

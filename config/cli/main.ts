/**
 * Entry point of the `keel` command (started by bin/keel.js through tsx).
 * @packageDocumentation
 */
import { processIo } from './cli-io.ts';
import { runKeel } from './run-keel.ts';

process.exitCode = await runKeel(process.argv.slice(2), processIo);

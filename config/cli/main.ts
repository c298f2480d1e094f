/**
 * Entry point of the `keel` command (started by bin/keel.js through tsx).
 * @packageDocumentation
 */
import { processIo } from './cli-io.ts';
import { surviveClosedOutput } from './closed-output.ts';
import { runKeel } from './run-keel.ts';

surviveClosedOutput(process.stdout, process.stderr);

process.exitCode = await runKeel(process.argv.slice(2), processIo);

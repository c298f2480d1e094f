import { CommanderError } from 'commander';
import type { CliIo } from './cli-io.ts';
import { EXIT } from './exit-codes.ts';
import { buildKeelProgram } from './keel-program.ts';

/**
 * Runs the `keel` command line and maps every outcome to a documented exit code: help and
 * version 0, usage errors 2, unexpected errors 1.
 * @param argv - the arguments after `keel`
 * @param io - output streams
 * @returns the exit code
 */
export async function runKeel(argv: readonly string[], io: CliIo): Promise<number> {
  let exitCode: number = EXIT.OK;
  const program = buildKeelProgram(io, (code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.OK : EXIT.BAD_CONFIG_OR_USAGE;
    io.stderr.write(
      `✖ keel failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return EXIT.RUNTIME_FAILURE;
  }
  return exitCode;
}

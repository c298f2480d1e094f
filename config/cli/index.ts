/**
 * The `keel` command line: commands, their options, and exit codes.
 * @packageDocumentation
 */
export type { CliIo } from './cli-io.ts';
export { processIo } from './cli-io.ts';
export type { ExitCode } from './exit-codes.ts';
export { EXIT, EXIT_CODE_MEANINGS, exitCodesHelp } from './exit-codes.ts';
export type { GridAxis } from './grid-spec.ts';
export {
  gridCombinations,
  MAX_GRID_COMBINATIONS,
  overrideOnGridAxis,
  parseGridAxis,
} from './grid-spec.ts';
export { buildKeelProgram } from './keel-program.ts';
export { runKeel } from './run-keel.ts';

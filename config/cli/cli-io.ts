/** Where a command writes: stdout for results, stderr for problems and progress. */
export interface CliIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
}

/** The process's own streams. */
export const processIo: CliIo = { stdout: process.stdout, stderr: process.stderr };

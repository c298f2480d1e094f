/** Where a command writes: stdout for results, stderr for problems and progress. */
export interface CliIo {
  readonly stdout: { write(text: string): unknown };
  /** Progress goes here too: a bar on a terminal (`isTTY`), plain lines otherwise. */
  readonly stderr: { write(text: string): unknown; readonly isTTY?: boolean };
}

/** The process's own streams. */
export const processIo: CliIo = { stdout: process.stdout, stderr: process.stderr };

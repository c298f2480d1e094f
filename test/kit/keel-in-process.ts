import { runKeel } from '../../config/cli/index.ts';

/** What one in-process `keel` command printed, and its exit code. */
export interface KeelOutput {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs the CLI in this process (faster than a child process; use `keel-child-process.ts` for
 * what needs its own process: signals, locks held by another pid), capturing its output.
 * @param args - the command line after `keel`
 * @param options - `cwd`: the working directory it runs in (this process's is put back after it)
 * @returns the exit code and what it wrote to stdout and stderr
 */
export async function keelInProcess(
  args: readonly string[],
  options: { readonly cwd?: string } = {},
): Promise<KeelOutput> {
  let stdout = '';
  let stderr = '';
  const cwd = process.cwd();
  if (options.cwd !== undefined) process.chdir(options.cwd);
  try {
    const code = await runKeel(args, {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => (stderr += text) },
    });
    return { code, stdout, stderr };
  } finally {
    process.chdir(cwd);
  }
}

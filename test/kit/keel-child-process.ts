import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

/** How a keel child process ended: its exit code and what it wrote. */
export interface KeelChildRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Where a keel child process runs and what it finds in its environment. */
export interface KeelChildOptions {
  /** Its working directory; default this process's. */
  readonly cwd?: string;
  /** Variables added to its environment, which otherwise holds PATH alone. */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * Kills it (SIGTERM) after this many ms; default {@link KEEL_CHILD_TIMEOUT_MS}. A test passes one
   * below its own timeout, so a hung child fails it with its stderr: vitest cannot interrupt a
   * synchronous spawn, and a child that never ends would block the whole run.
   */
  readonly timeoutMs?: number;
}

/** How long a keel child may run when its test gives no time limit: a hang then costs this, not the CI run. */
export const KEEL_CHILD_TIMEOUT_MS = 100_000;

/**
 * Runs `bin/keel.js` as a user would, in a child process with a clean environment (PATH and
 * `options.env`, nothing else of the test's), and waits for it to end.
 * @param args - the command line after `keel`
 * @param options - working directory, extra environment variables and a time limit
 * @returns its exit code (null when killed by the signal), stdout and stderr (ending with a note
 *   when it was killed at its time limit)
 */
export function keelChild(args: readonly string[], options: KeelChildOptions = {}): KeelChildRun {
  const timeoutMs = options.timeoutMs ?? KEEL_CHILD_TIMEOUT_MS;
  const child = spawnSync(process.execPath, [resolve('bin/keel.js'), ...args], {
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    timeout: timeoutMs,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', ...options.env },
  });
  // Sent SIGTERM at its limit: a child still starting then exits 143 by the launcher's listener
  // (bin/unheld-signals.js) rather than by the signal, and was stopped all the same.
  const killed =
    (child.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT'
      ? `\n[test kit] keel ${args.join(' ')} killed (SIGTERM) after ${timeoutMs} ms: it did not end`
      : '';
  return { code: child.status, stdout: child.stdout, stderr: `${child.stderr}${killed}` };
}

/**
 * The `--set` flags that write a run's result and HTML report to `<dir>/<name>-result.json` and
 * `<dir>/<name>-report.html`, so several runs of one test keep their files apart.
 * @param dir - the folder of the files
 * @param name - what the files' names start with
 * @returns the flags, to spread into a command line
 */
export function reportOutputFlags(dir: string, name: string): string[] {
  return [
    '--set',
    `report.json=${join(dir, `${name}-result.json`)}`,
    '--set',
    `report.html=${join(dir, `${name}-report.html`)}`,
  ];
}

/** A running `keel run` child and what it has written so far. */
export interface PaperRunChild {
  readonly child: ChildProcessWithoutNullStreams;
  readonly out: { stdout: string; stderr: string };
}

/**
 * Starts `keel run` of the paper example (`config/examples/market-maker-paper.yaml`) with its
 * recording, result and report at `<dir>/<name>.jsonl.gz`, `-result.json` and `-report.html`,
 * and waits until it printed its first fill (the session trades).
 * @param dir - the folder of the files
 * @param name - what the files' names start with
 * @returns the running child and its output so far (still growing)
 */
export async function paperRunUntilFirstFill(dir: string, name: string): Promise<PaperRunChild> {
  const child = spawn(
    process.execPath,
    [
      resolve('bin/keel.js'),
      'run',
      'config/examples/market-maker-paper.yaml',
      '--set',
      `recording.path=${join(dir, `${name}.jsonl.gz`)}`,
      ...reportOutputFlags(dir, name),
    ],
    { env: { PATH: process.env.PATH ?? '' } },
  );
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => {
    out.stdout += String(chunk);
  });
  child.stderr.on('data', (chunk: Buffer) => {
    out.stderr += String(chunk);
  });
  await new Promise<void>((ready) => {
    const poll = setInterval(() => {
      if (/^fill /m.test(out.stdout)) {
        clearInterval(poll);
        ready();
      }
    }, 50);
  });
  return { child, out };
}

/** A stream the process writes its output to. */
export interface OutputStream {
  on(event: 'error', listener: (error: NodeJS.ErrnoException) => void): unknown;
  write(text: string): unknown;
  readonly writable: boolean;
}

/**
 * Keeps the process going when whoever reads its stdout or stderr goes away (`keel run ... | head
 * -1`, a closed terminal or log pipe): the write's error (EPIPE) no longer ends the process in the
 * middle of a session, without its shutdown, cancels or result. Nothing more is written to that
 * stream (it is closed); the other one, while open, is told once.
 * @param stdout - the process's stdout
 * @param stderr - the process's stderr
 */
export function surviveClosedOutput(stdout: OutputStream, stderr: OutputStream): void {
  const watch = (stream: OutputStream, name: string, other: OutputStream): void => {
    let told = false;
    stream.on('error', (error) => {
      if (told) return;
      told = true;
      if (other.writable)
        other.write(
          `keel: ${name} is closed (${error.code ?? error.message}): no more output there; keel goes on\n`,
        );
    });
  };
  watch(stdout, 'stdout', stderr);
  watch(stderr, 'stderr', stdout);
}

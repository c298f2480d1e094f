/**
 * Whether a process runs, for files a process leaves behind when killed (spill directories, event
 * cache partials, run locks): signal 0 checks without signalling; EPERM means it runs as another
 * user.
 * @param pid - the process id
 * @returns true when it runs
 */
export function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

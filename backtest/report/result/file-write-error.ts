import { shownPath } from './shown-path.ts';

/**
 * A file could not be written or moved in place (a full disk, a file-size limit, a directory where
 * the file goes): the message names the file, which the file system's own error does not.
 */
export class FileWriteError extends Error {
  override readonly name = 'FileWriteError';
  /** The file system's error code (`ENOSPC`, `EFBIG`, `EISDIR`...), when there was one. */
  readonly code: string | undefined;

  /**
   * @param path - the file that was being written
   * @param cause - the file system's error, or what went wrong in words
   */
  constructor(
    readonly path: string,
    cause: unknown,
  ) {
    const what = cause instanceof Error ? cause.message : String(cause);
    super(`cannot write ${shownPath(path)}: ${what}`, { cause });
    this.code = (cause as NodeJS.ErrnoException | undefined)?.code;
  }
}

/**
 * Runs a file system step, its failure turned into a {@link FileWriteError} naming the file.
 * @param path - the file the step writes
 * @param step - the step
 * @returns what the step returns
 * @throws FileWriteError when the step fails
 */
export async function writingFile<T>(path: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw error instanceof FileWriteError ? error : new FileWriteError(path, error);
  }
}

import { rmSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { CsvImportError } from './csv-import-error.ts';
import { stagedRecordingName } from './recording-output.ts';
import {
  existingRealPath,
  type StagedOhlcvImport,
  type StagedOhlcvImportOptions,
} from './staged-ohlcv-import.ts';

/** An error as the worker posts it. */
interface PostedError {
  readonly name: string;
  readonly message: string;
  readonly file?: string;
  readonly line?: number;
}

/** What the worker posts: the staged import, or why it failed. */
type WorkerAnswer = { readonly done: StagedOhlcvImport } | { readonly failed: PostedError };

/**
 * Writes an import's staged recording ({@link writeStagedOhlcvImport}) on a worker thread, so
 * `signal` can stop it at once: the import reads and writes synchronously, a chunk at a time,
 * which would hold this thread, and with it the signal handlers, until its pass ends. Stopped,
 * the worker is terminated and its staged file removed.
 * @param options - input, output, sym and the CSV reading options (plain data)
 * @param signal - aborted to stop the import
 * @returns the staged file, the file it replaces and what was written
 * @throws the abort's reason when `signal` aborts first; CsvImportError, TypeError or Error as
 *   the import threw them
 */
export function stagedImportInWorker(
  options: StagedOhlcvImportOptions,
  signal: AbortSignal,
): Promise<StagedOhlcvImport> {
  signal.throwIfAborted();
  const worker = new Worker(new URL('./ohlcv-import-worker.js', import.meta.url), { workerData: options });
  return new Promise<StagedOhlcvImport>((resolve, reject) => {
    let answered = false;
    const stop = (): void => {
      answered = true;
      void worker.terminate().finally(() => {
        // Named after this process: what the worker had written of it, if anything.
        rmSync(stagedRecordingName(existingRealPath(options.output)), { force: true });
        reject(signal.reason);
      });
    };
    signal.addEventListener('abort', stop, { once: true });
    worker.once('message', (answer: WorkerAnswer) => {
      if (answered) return;
      answered = true;
      signal.removeEventListener('abort', stop);
      if ('done' in answer) resolve(answer.done);
      else reject(rebuiltError(answer.failed));
    });
    worker.once('error', (error) => {
      if (answered) return;
      answered = true;
      signal.removeEventListener('abort', stop);
      reject(error);
    });
    worker.once('exit', (code) => {
      if (answered) return;
      answered = true;
      signal.removeEventListener('abort', stop);
      reject(new Error(`the import's worker thread ended (exit code ${code}) without writing the recording`));
    });
  });
}

/** The import's error as it was thrown: its class (CsvImportError, TypeError) and message. */
function rebuiltError(posted: PostedError): Error {
  if (posted.name === 'CsvImportError') {
    const error = new CsvImportError(posted.file ?? '', posted.line ?? 0, '');
    error.message = posted.message;
    return error;
  }
  return posted.name === 'TypeError' ? new TypeError(posted.message) : new Error(posted.message);
}

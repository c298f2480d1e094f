import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { isGzipPath } from '../recording/index.ts';
import { removeStaleStagedFiles, stagedNameOf } from '../report/index.ts';
import { CsvImportError } from './csv-import-error.ts';

/** The endings a recording is read back by: plain JSON lines, or gzipped. */
const RECORDING_ENDINGS = ['.jsonl', '.jsonl.gz'] as const;

/**
 * Checks where an import would write its recording before anything is read or written: the
 * writer replaces the file, so writing over the CSV would lose the user's data, and a name
 * without a recording's ending would hold a recording nothing reads as one.
 * @param input - the CSV being imported
 * @param output - the recording to write
 * @throws CsvImportError naming the output when it is the input or does not end in .jsonl or .jsonl.gz
 */
export function checkRecordingOutput(input: string, output: string): void {
  if (samePath(input, output))
    throw new CsvImportError(
      output,
      0,
      'is the CSV being imported; write the recording to another file (.jsonl or .jsonl.gz)',
    );
  if (!RECORDING_ENDINGS.some((ending) => output.endsWith(ending)))
    throw new CsvImportError(
      output,
      0,
      'a recording is written as .jsonl or .jsonl.gz; name the output with one of those endings',
    );
}

/** Whether two names reach one file: the same resolved path, or the same real path through links. */
function samePath(a: string, b: string): boolean {
  if (resolve(a) === resolve(b)) return true;
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    // One of them does not exist yet, so they cannot be the same file.
    return false;
  }
}

/** How a staged recording's name ends: `.partial`, then the ending its reader needs. */
function stagedEnding(target: string): string {
  return `.partial${isGzipPath(target) ? '.jsonl.gz' : '.jsonl'}`;
}

/**
 * Where an import writes its recording before it replaces `target`: a hidden name beside it that
 * names the process (`.btc.jsonl.gz.4242.partial.jsonl.gz`), so an import killed half-way leaves
 * nothing a user or a glob would take for a recording. What killed imports left for `target` (and
 * the `<target>.partial.jsonl(.gz)` an older Keel wrote) is removed first.
 * @param target - the recording to write
 * @returns the staged path, in the target's directory
 */
export async function stagedRecordingPath(target: string): Promise<string> {
  await removeStaleStagedFiles(target, stagedEnding(target));
  return stagedRecordingName(target);
}

/**
 * The name this process stages a recording for `target` under (see {@link stagedRecordingPath}),
 * without clearing what killed imports left: for removing it once an import is stopped.
 * @param target - the recording to write
 * @returns the staged path, in the target's directory
 */
export function stagedRecordingName(target: string): string {
  return stagedNameOf(target, stagedEnding(target));
}

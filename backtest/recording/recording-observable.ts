import { Observable } from 'rxjs';
import type { RecordDecoder } from './recorded-message.ts';
import { type RecordingReadOptions, readEventBatches } from './recording-reader.ts';

/**
 * A recording as an RxJS Observable of decoded events. Each batch (one disk chunk) is emitted
 * synchronously, and the reader awaits the next chunk between batches, so downstream operators run
 * without a scheduler per event. Unsubscribing stops reading and closes the file.
 * @param path - a `.jsonl` or `.jsonl.gz` recording
 * @param decode - turns each record into an event (null drops it, an Error makes it malformed)
 * @param options - see {@link RecordingReadOptions}
 * @returns a cold Observable: each subscription reads the file from the start
 * @example
 * recordingObservable(path, keepRecord).pipe(filter((r) => r.source === 'private')).subscribe(log);
 */
export function recordingObservable<E>(
  path: string,
  decode: RecordDecoder<E>,
  options: RecordingReadOptions = {},
): Observable<E> {
  return new Observable<E>((subscriber) => {
    const batches = readEventBatches(path, decode, options);
    const pump = async (): Promise<void> => {
      for await (const batch of batches) {
        for (const event of batch) {
          if (subscriber.closed) return;
          subscriber.next(event);
        }
      }
      subscriber.complete();
    };
    pump().catch((error: unknown) => subscriber.error(error));
    return () => {
      void batches.return();
    };
  });
}

import { EmptyReplayWindowError } from './empty-replay-window.ts';
import { openReplaySources, type ReplaySourceOptions } from './replay-sources.ts';

/**
 * Whether a run's replay window misses its recordings, found as the run finds it: the recordings
 * opened as `runBacktest` opens them, read up to the first batch in the window (to their end when
 * there is none), then closed. For a caller that would start many runs on one window (a sweep),
 * so it can refuse them all at once.
 * @param options - the run's recordings, decoder, window, warm-up and event cache
 * @returns the error the run would throw; undefined when the window holds an event, or there is none
 * @throws what opening the recordings throws besides (an unreadable recording, a CSV that is not bars)
 */
export async function emptyReplayWindow(
  options: ReplaySourceOptions,
): Promise<EmptyReplayWindowError | undefined> {
  if (options.window === undefined) return undefined;
  try {
    const sources = await openReplaySources(options);
    await sources.close();
    return undefined;
  } catch (error) {
    if (error instanceof EmptyReplayWindowError) return error;
    throw error;
  }
}

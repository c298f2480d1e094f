import type { KeelEvent, MarketEvent } from '../../core/model/index.ts';
import type { BacktestRunOptions } from './backtest-run-options.ts';
import type { OutsideWindowSpans } from './outside-window-spans.ts';
import type { RecordingEndTimes } from './recording-end-times.ts';
import { replaySourceName } from './replay-source.ts';

/** Kinds of market events; recorded User Data is not replayed (the simulated venue makes its own). */
const MARKET_KINDS: ReadonlySet<string> = new Set(['quote', 'trade', 'bar', 'book', 'markPrice', 'gap']);

/**
 * Decodes a recorded record and keeps its market events only. A private-stream record is skipped
 * undecoded, as the paper venue's feed skips it: the simulated venue makes its own User Data, so a
 * frame of it the decoder cannot read is nothing the run lacks (and not a malformed line).
 * @param record - a record of a recording
 * @param decode - the run's decoder
 * @returns the market event(s), null when there is none, or the decoder's Error
 */
export function marketOnly(
  record: Parameters<BacktestRunOptions['decode']>[0],
  decode: BacktestRunOptions['decode'],
): MarketEvent | readonly MarketEvent[] | null | Error {
  if (record.source !== 'market-data') return null;
  const decoded = decode(record);
  if (decoded === null || decoded instanceof Error) return decoded;
  if (Array.isArray(decoded))
    return (decoded as readonly KeelEvent[]).filter((e): e is MarketEvent => MARKET_KINDS.has(e.kind));
  const event = decoded as KeelEvent;
  return MARKET_KINDS.has(event.kind) ? (event as MarketEvent) : null;
}

/** Receive times of the first and last event read from the recordings, window or not. */
export interface RecordedSpan {
  first: number | undefined;
  last: number | undefined;
}

/**
 * The time an event is placed in the window by: a bar's open time (a bar is in [from, to) when it
 * opened in it, so `from` is the open of the first bar replayed and a bar opening at `to` is the
 * first one left out, whatever its interval), any other event's receive time.
 */
function windowTimeOf(event: MarketEvent): number {
  return event.kind === 'bar' ? event.openTime : event.recvTs;
}

/**
 * The events of a source inside the window ({@link windowTimeOf}); all of them without one.
 * @param source - batches of market events in receive-time order
 * @param window - the replay window, if any
 * @param span - updated with the receive times of the first and last event read
 * @param outside - told of the events the window leaves out
 * @returns the batches, cut to the window
 */
export async function* within(
  source: AsyncIterable<readonly MarketEvent[]>,
  window: BacktestRunOptions['window'],
  span: RecordedSpan,
  outside?: OutsideWindowSpans,
): AsyncGenerator<readonly MarketEvent[]> {
  if (window === undefined) {
    yield* source;
    return;
  }
  const from = window.from ?? Number.NEGATIVE_INFINITY;
  const to = window.to ?? Number.POSITIVE_INFINITY;
  const inside = (e: MarketEvent): boolean => {
    const t = windowTimeOf(e);
    return t >= from && t < to;
  };
  for await (const batch of source) {
    const first = batch[0];
    const last = batch[batch.length - 1];
    if (first !== undefined && (span.first === undefined || first.recvTs < span.first))
      span.first = first.recvTs;
    if (last !== undefined && (span.last === undefined || last.recvTs > span.last)) span.last = last.recvTs;
    // Read to the end even past the window: an event cache is only kept once its source was read whole.
    // A bar opens before it is received, so only a batch received wholly before `from` is skipped unread.
    if (first === undefined || last === undefined) continue;
    if (last.recvTs < from) {
      outside?.note(batch, windowTimeOf);
      continue;
    }
    if (batch.every(inside)) {
      yield batch;
      continue;
    }
    outside?.note(
      batch.filter((e) => !inside(e)),
      windowTimeOf,
    );
    const kept = batch.filter(inside);
    if (kept.length > 0) yield kept;
  }
}

/**
 * Event-time span of the replay: from its first event to the last record of the recordings
 * (`readLastRecvTs`, or as their event caches kept it), cut at the window's end. A recording
 * without records (header only) adds nothing to it; undefined when no recording holds a record.
 * @param options - the run's recordings and window
 * @param startTime - receive time of the first event replayed
 * @param ends - the recordings' last receive times
 * @returns the span in ms, or undefined
 */
export async function spanOf(
  options: BacktestRunOptions,
  startTime: number,
  ends: RecordingEndTimes,
): Promise<number | undefined> {
  const times = await Promise.all(options.recordings.map((source) => ends.of(replaySourceName(source))));
  const known = times.filter((ts): ts is number => ts !== undefined);
  if (known.length === 0) return undefined;
  return Math.min(Math.max(...known), options.window?.to ?? Number.POSITIVE_INFINITY) - startTime;
}

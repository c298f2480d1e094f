/** Epoch ms as `2024-01-01 00:04:00 UTC`. */
function utc(ts: number): string {
  const iso = new Date(ts).toISOString();
  return `${(iso.endsWith('.000Z') ? iso.slice(0, 19) : iso.slice(0, 23)).replace('T', ' ')} UTC`;
}

/**
 * The replay window (`from` / `to`) held no event of the recordings: the run would replay
 * nothing and report a flat, trade-less result as if it had succeeded.
 */
export class EmptyReplayWindowError extends Error {
  /**
   * @param window - the window asked for, epoch ms
   * @param recordedFrom - receive time of the recordings' first event; undefined when they hold none
   * @param recordedTo - receive time of their last event
   */
  constructor(
    readonly window: { readonly from?: number; readonly to?: number },
    readonly recordedFrom: number | undefined,
    readonly recordedTo: number | undefined,
  ) {
    super(EmptyReplayWindowError.sentence(window, recordedFrom, recordedTo));
    this.name = 'EmptyReplayWindowError';
  }

  private static sentence(
    window: { readonly from?: number; readonly to?: number },
    first: number | undefined,
    last: number | undefined,
  ): string {
    const tail = 'nothing was replayed';
    if (first === undefined || last === undefined) return `the recordings hold no market events: ${tail}`;
    if (window.from !== undefined && window.from > last)
      return `the replay window starts at ${utc(window.from)}, after the recordings end (${utc(last)}): ${tail}`;
    if (window.to !== undefined && window.to <= first)
      return `the replay window ends at ${utc(window.to)}, before the recordings start (${utc(first)}): ${tail}`;
    return `the recordings (${utc(first)} to ${utc(last)}) hold no event inside the replay window: ${tail}`;
  }
}

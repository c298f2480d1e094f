/** One OHLCV bar as imported: prices and volume as exact decimal strings. */
export interface OhlcvBar {
  /** Bar open time, epoch ms. */
  readonly openTime: number;
  readonly open: string;
  readonly high: string;
  readonly low: string;
  readonly close: string;
  readonly volume: string;
  /** Line of the CSV file the bar came from. */
  readonly line: number;
}

/** A row the importer left out, and why. */
export interface SkippedRow {
  readonly line: number;
  readonly reason: string;
}

/** A bar as read from its row, before its time is known to be the open (`timestampIs`). */
export interface RawBar {
  /** The row's time, epoch ms. */
  readonly ts: number;
  readonly bar: Omit<OhlcvBar, 'openTime'>;
}

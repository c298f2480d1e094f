import { EMPTY_VALUES } from './csv-numbers.ts';

/**
 * Where each OHLCV field is in a row: either one time column, or a date column plus a time
 * column. Column indexes are 0-based.
 */
export interface ColumnLayout {
  /** True when the first line is a header (and is skipped). */
  readonly hasHeader: boolean;
  /**
   * True for yfinance's three-row header (`Price,Close,...` / `Ticker,AAPL,...` / `Date,,,...`):
   * the `Ticker` and `Date` rows after the first are skipped too.
   */
  readonly yfinanceHeader?: boolean;
  readonly time: number;
  /** A separate time-of-day column (`date,time,...` files), when there is one. */
  readonly timeOfDay?: number;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
  /** Yahoo-style adjusted close, when present. */
  readonly adjClose?: number;
  /** Missing volume imports as 0. */
  readonly volume?: number;
  /**
   * MetaTrader's `<TICKVOL>` beside its `<VOL>`: the volume read instead when `<VOL>` (the real
   * volume, 0 for forex and CFDs) is 0 on every row.
   */
  readonly tickVolume?: number;
  /** The file's column names (the header's), or `column 1`, `column 2`... without a header. */
  readonly names: readonly string[];
}

const TIME_NAMES = [
  'timestamp',
  'datetime',
  'date',
  'time',
  'opentime',
  'open_time',
  'ts',
  'gmttime',
  'localtime',
  'day',
  't',
  'datum',
];
/**
 * Names of the date and time-of-day columns of `date,time,...` files. German broker exports
 * (onvista, ariva, comdirect) write `Datum` and `Zeit`.
 */
const DATE_NAMES = ['date', 'datum'];
/**
 * Investing.com's name for the close (`Date,Price,Open,High,Low,Vol.,Change %`), taken only when
 * no column is named as a close: yfinance's first header row writes `Price` over its time column.
 */
const PRICE_AS_CLOSE = ['price'];
const TIME_OF_DAY_NAMES = ['time', 'zeit', 'uhrzeit'];
const NAMES: Readonly<Record<'open' | 'high' | 'low' | 'close' | 'adjClose' | 'volume', readonly string[]>> =
  {
    open: ['open', 'o', 'opening', 'eröffnung', 'eroeffnung', 'erster', 'eröffnungskurs'],
    high: ['high', 'h', 'max', 'hoch', 'höchst', 'hoechst', 'tageshoch', 'höchstkurs'],
    low: ['low', 'l', 'min', 'tief', 'tiefst', 'tagestief', 'tiefstkurs'],
    close: ['close', 'c', 'last', 'closing', 'schluss', 'schluß', 'schlusskurs', 'letzter', 'close/last'],
    adjClose: ['adjclose', 'adj_close', 'adjustedclose', 'adj'],
    // German exports: `Stücke` is the share count; ariva's `Volumen` next to it is the turnover in
    // money, so a file holding both takes the count, wherever either stands (names earlier in a
    // list win).
    volume: ['volume', 'vol', 'v', 'basevolume', 'volume_base', 'tickvol', 'stücke', 'stuecke', 'volumen'],
  };
/** Words for a volume a `Volume <asset>` column may start with: `Volume BTC`, `Volumen (BTC)`, `Vol. BTC`. */
const VOLUME_WORDS: ReadonlySet<string> = new Set(['volume', 'volumen', 'vol']);
/** A volume and its asset written as one word: `VolumeBTC`. */
const GLUED_ASSET_VOLUME = /^volume([a-z0-9]+)$/;

/**
 * The asset a `Volume <asset>` column counts (`BTC` of CryptoDataDownload's `Volume BTC`, of
 * `Volumen (BTC)` or of `VolumeBTC`). A name that is a volume alone (`Volume`, German `Volumen`,
 * `Vol.`, `<VOL>`, `Volumen (€)`) counts no asset.
 * @param name - a column's name as the header writes it
 * @returns the asset, upper case, or undefined when the name is no such volume
 */
export function volumeAssetOf(name: string): string | undefined {
  if (NAMES.volume.includes(normalise(name))) return undefined;
  const words = name
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
  const [first, ...rest] = words;
  if (first === undefined) return undefined;
  if (VOLUME_WORDS.has(first)) return rest.length > 0 ? rest.join('').toUpperCase() : undefined;
  return rest.length > 0 ? undefined : GLUED_ASSET_VOLUME.exec(first)?.[1]?.toUpperCase();
}

function normalise(name: string): string {
  return name
    .toLowerCase()
    .replace(/^<|>$/g, '')
    .replace(/[\s.\-()[\]]/g, '');
}

/**
 * A cell a row of bars writes, not a column's name: a number in any of the styles the importer
 * reads (`189.5`, `1e-5`, a decimal comma `1,5`, grouped `1.234,5` or `1,234.5`, Nasdaq.com's
 * `$340.71`, Investing.com's `1.2M`), or a time of day (`09:30`).
 */
const VALUE_CELL = /^[-+]?\$?(\d[\d.,]*|[.,]\d+)([eE][-+]?\d+)?[KMB%]?$|^\d{1,2}:\d{2}/;

/**
 * Whether the first row is a header: any of its fields after the first is neither a number (in
 * any style the importer reads: `1,5`, `1.234,5`, `$340.71`), a time of day nor an empty value
 * (`NaN`, `null`, `n/a`, `-`), so a header-less file whose first bar has a `NaN` or a decimal comma
 * is not taken for one.
 * @param fields - the first row
 * @returns true for a header row
 */
export function looksLikeHeader(fields: readonly string[]): boolean {
  return fields.slice(1).some((f) => !EMPTY_VALUES.has(f.toLowerCase()) && !VALUE_CELL.test(f));
}

/**
 * Finds the columns from a header row (case, spaces, dots and `<...>` ignored: `Adj Close`,
 * `<OPEN>`, `open_time` all match; yfinance's `Price` heads its time column; German exports' `Datum`,
 * `Eröffnung`, `Hoch`, `Tief`, `Schluss`, `Stücke` or `Volumen` are read too, as are Investing.com's
 * `Price` and `Vol.` and Nasdaq.com's `Close/Last`; with no column named a volume alone, the
 * `Volume <asset>` of the base asset when it is known, else the first: CryptoDataDownload's
 * `Volume BTC` of `Volume BTC,Volume USDT`). With no time column named, an
 * unnamed first column is the time (pandas writes a datetime index so: `,Open,High,...`).
 * MetaTrader's `<TICKVOL>` beside its `<VOL>` is kept as {@link ColumnLayout.tickVolume}.
 * @param header - the header fields
 * @param delimiter - the file's field separator, to echo the header as the file writes it
 * @param baseAsset - the base asset of the sym the bars are of, when it has one
 * @returns the layout, or a sentence saying which column is missing
 */
export function layoutFromHeader(
  header: readonly string[],
  delimiter = ',',
  baseAsset?: string,
): ColumnLayout | string {
  const names = header.map(normalise);
  // The column of the earliest candidate the header has, so a name's priority, not the file's
  // column order, decides between two columns that both match.
  const find = (candidates: readonly string[]): number | undefined => {
    for (const candidate of candidates) {
      const i = names.indexOf(candidate);
      if (i !== -1) return i;
    }
    return undefined;
  };
  const dateIndex = names.findIndex((n) => DATE_NAMES.includes(n));
  const timeIndex = names.findIndex((n) => TIME_OF_DAY_NAMES.includes(n));
  const combined = dateIndex !== -1 && timeIndex !== -1;
  // yfinance's first header row names its time column "Price" (the field names' own header).
  const yfinance = names[0] === 'price' && find(TIME_NAMES) === undefined;
  // pandas' `df.to_csv()` leaves the name of an unnamed (datetime) index empty: `,Open,High,...`.
  const unnamedIndex = names[0] === '' ? 0 : undefined;
  const time = combined ? dateIndex : yfinance ? 0 : (find(TIME_NAMES) ?? unnamedIndex);
  const open = find(NAMES.open);
  const high = find(NAMES.high);
  const low = find(NAMES.low);
  const close = find(NAMES.close) ?? (yfinance ? undefined : find(PRICE_AS_CLOSE));
  const assets = header.map(volumeAssetOf);
  const volume =
    find(NAMES.volume) ??
    (baseAsset === undefined ? undefined : indexOf(assets.indexOf(baseAsset.toUpperCase()))) ??
    indexOf(assets.findIndex((asset) => asset !== undefined));
  const tickVolume = find(['tickvol']);
  const missing = Object.entries({ time, open, high, low, close })
    .filter(([, v]) => v === undefined)
    .map(([k]) => k);
  if (missing.length > 0) {
    return `header ${JSON.stringify(header.join(delimiter))} has no ${missing.join(', ')} column (expected e.g. timestamp,open,high,low,close,volume)`;
  }
  return {
    hasHeader: true,
    ...(yfinance ? { yfinanceHeader: true } : {}),
    time: time as number,
    ...(combined ? { timeOfDay: timeIndex } : {}),
    open: open as number,
    high: high as number,
    low: low as number,
    close: close as number,
    ...optional('adjClose', find(NAMES.adjClose)),
    ...optional('volume', volume),
    ...optional('tickVolume', tickVolume === volume ? undefined : tickVolume),
    names: header,
  };
}

/** An index `findIndex` gave, undefined for its -1. */
function indexOf(index: number): number | undefined {
  return index === -1 ? undefined : index;
}

function optional<K extends string>(key: K, index: number | undefined): { [P in K]?: number } {
  return (index === undefined ? {} : { [key]: index }) as { [P in K]?: number };
}

/**
 * The layout of a file without a header, from its first row: `time,open,high,low,close[,volume]`,
 * or `date,time,open,high,low,close[,volume]` when the second field is a time of day.
 * @param fields - the first row
 * @returns the layout, or a sentence saying why the row fits neither
 */
export function layoutWithoutHeader(fields: readonly string[]): ColumnLayout | string {
  if (fields.length >= 6 && /^\d{1,2}:\d{2}(:\d{2})?$/.test(fields[1] ?? '')) {
    return {
      hasHeader: false,
      time: 0,
      timeOfDay: 1,
      open: 2,
      high: 3,
      low: 4,
      close: 5,
      ...optional('volume', fields.length > 6 ? 6 : undefined),
      names: numberedColumns(fields.length),
    };
  }
  if (fields.length >= 5) {
    return {
      hasHeader: false,
      time: 0,
      open: 1,
      high: 2,
      low: 3,
      close: 4,
      ...optional('volume', fields.length > 5 ? 5 : undefined),
      names: numberedColumns(fields.length),
    };
  }
  return `a file without a header needs at least time,open,high,low,close; the first row has ${fields.length} field(s)`;
}

/** `column 1`, `column 2`... for a file without a header. */
function numberedColumns(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `column ${i + 1}`);
}

/**
 * Which column each field was read from, as the import's summary shows it:
 * `time=Date, open=Open, ..., volume=Volume` (`volume=<none → 0>` when no column holds it).
 * @param layout - the layout
 * @param volume - the volume column read (the layout's, or its `<TICKVOL>` in its stead)
 * @returns the mapping, one `field=column` per field
 */
export function columnMapping(layout: ColumnLayout, volume: number | undefined): string {
  const name = (index: number): string => layout.names[index] || `column ${index + 1}`;
  const time =
    layout.timeOfDay === undefined ? name(layout.time) : `${name(layout.time)} ${name(layout.timeOfDay)}`;
  const volumeName =
    volume === undefined
      ? '<none → 0>'
      : volume === layout.volume || layout.volume === undefined
        ? name(volume)
        : `${name(volume)} (${name(layout.volume)} is 0 throughout)`;
  return [
    `time=${time}`,
    `open=${name(layout.open)}`,
    `high=${name(layout.high)}`,
    `low=${name(layout.low)}`,
    `close=${name(layout.close)}`,
    ...(layout.adjClose === undefined ? [] : [`adjClose=${name(layout.adjClose)}`]),
    `volume=${volumeName}`,
  ].join(', ');
}

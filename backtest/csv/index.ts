/**
 * OHLCV CSV import: common column layouts, header detection, time zones (luxon), into a session
 * recording of KLINE pushes.
 * @packageDocumentation
 */
export type { EpochUnit, TimeParsing } from './bar-time.ts';
export { epochToMs, parseBarTime } from './bar-time.ts';
export type { ColumnLayout } from './column-layout.ts';
export { layoutFromHeader, layoutWithoutHeader, looksLikeHeader } from './column-layout.ts';
export { detectDelimiter, splitCsvLine } from './csv-fields.ts';
export { CsvImportError } from './csv-import-error.ts';
export type { DecimalMark } from './csv-numbers.ts';
export type { OhlcvImportOptions, OhlcvImportSummary } from './import-ohlcv-csv.ts';
export { importOhlcvCsv } from './import-ohlcv-csv.ts';
export type { KlineMessage } from './kline-messages.ts';
export { klineMessage } from './kline-messages.ts';
export type { OhlcvBar, SkippedRow } from './ohlcv-bar.ts';
export { ohlcvCsvWarnings } from './ohlcv-csv-warnings.ts';
export type { OhlcvCsvContents, OhlcvCsvOptions } from './parse-ohlcv-csv.ts';
export { parseOhlcvCsv } from './parse-ohlcv-csv.ts';
export type { OhlcvCsvBars, OhlcvCsvSource } from './read-ohlcv-csv.ts';
export { readOhlcvCsvBars } from './read-ohlcv-csv.ts';

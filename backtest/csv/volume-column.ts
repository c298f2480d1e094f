import { type ColumnLayout, volumeAssetOf } from './column-layout.ts';
import { splitCsvLine } from './csv-fields.ts';
import type { CsvRow } from './csv-rows.ts';

const ZERO_CELL = /^[-+]?0*([.,]0*)?$/;

/**
 * The column the bars' volume is read from: the layout's, or MetaTrader's `<TICKVOL>` in its stead
 * when the layout's `<VOL>` (the real volume, 0 for forex and CFDs) is 0 or empty on every row and
 * the tick volume is not.
 * @param layout - the file's layout
 * @param rows - the rows after the header (read only when the layout has a tick volume)
 * @param delimiter - the file's separator
 * @returns the column index, or undefined when no column holds a volume
 */
export function volumeColumn(
  layout: ColumnLayout,
  rows: () => Iterable<CsvRow>,
  delimiter: string,
): number | undefined {
  const { volume, tickVolume } = layout;
  if (volume === undefined || tickVolume === undefined) return volume;
  let tickVolumeSeen = false;
  for (const row of rows()) {
    const fields = splitCsvLine(row.text, delimiter);
    if (!ZERO_CELL.test(fields[volume] ?? '')) return volume;
    tickVolumeSeen ||= !ZERO_CELL.test(fields[tickVolume] ?? '');
  }
  return tickVolumeSeen ? tickVolume : volume;
}

/**
 * What looks wrong with the bars' volume though the file read: no column holds it (every bar's is
 * 0), or the one read is 0 on every bar.
 * @param layout - the file's layout
 * @param volume - the column read, from {@link volumeColumn}
 * @param everyVolumeZero - whether every bar read has a volume of 0
 * @param header - the header as the file writes it, when it has one
 * @returns the sentences; empty when some bar has a volume
 */
export function volumeWarnings(
  layout: ColumnLayout,
  volume: number | undefined,
  everyVolumeZero: boolean,
  header: string | undefined,
): string[] {
  if (volume === undefined)
    return [
      `no volume column (${header === undefined ? `rows of ${layout.names.length} fields without a header` : `header ${JSON.stringify(header)}`}): every bar's volume is 0`,
    ];
  if (everyVolumeZero)
    return [`the volume (${layout.names[volume] || `column ${volume + 1}`}) is 0 on every bar`];
  return [];
}

/**
 * A warning when the volume is read from a `Volume <asset>` column in another asset than the
 * base asset of the sym the bars are of (`Volume ETH` in a file imported as BTC): the file is
 * likely another pair's, or its volume counts the quote asset (money), not the quantity traded.
 * @param layout - the file's layout
 * @param volume - the column read, from {@link volumeColumn}
 * @param baseAsset - the sym's base asset, when it has one
 * @returns the warning, or undefined when the assets match or either is not known
 */
export function volumeAssetWarning(
  layout: ColumnLayout,
  volume: number | undefined,
  baseAsset: string | undefined,
): string | undefined {
  const name = volume === undefined ? undefined : layout.names[volume];
  const asset = name === undefined ? undefined : volumeAssetOf(name);
  if (asset === undefined || baseAsset === undefined || asset === baseAsset.toUpperCase()) return undefined;
  return `the volume is read from ${JSON.stringify(name)}, a volume in ${asset}, but the sym's base asset is ${baseAsset}: is the file another pair's? Import each file with the sym of its pair (a volume in the quote asset counts money, not ${baseAsset} traded)`;
}

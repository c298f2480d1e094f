import { D } from '../../core/model/index.ts';
import type { ColumnLayout } from './column-layout.ts';
import { splitCsvLine } from './csv-fields.ts';
import type { OhlcvBar } from './ohlcv-bar.ts';

const ZERO_CELL = /^[-+]?0*([.,]0*)?$/;

/**
 * The column the bars' volume is read from: the layout's, or MetaTrader's `<TICKVOL>` in its stead
 * when the layout's `<VOL>` (the real volume, 0 for forex and CFDs) is 0 or empty on every row and
 * the tick volume is not.
 * @param layout - the file's layout
 * @param lines - the file's lines
 * @param firstRow - index of the first line after the header
 * @param delimiter - the file's separator
 * @returns the column index, or undefined when no column holds a volume
 */
export function volumeColumn(
  layout: ColumnLayout,
  lines: readonly string[],
  firstRow: number,
  delimiter: string,
): number | undefined {
  const { volume, tickVolume } = layout;
  if (volume === undefined || tickVolume === undefined) return volume;
  let tickVolumeSeen = false;
  for (let i = firstRow; i < lines.length; i++) {
    const text = (lines[i] as string).trim();
    if (text === '') continue;
    const fields = splitCsvLine(text, delimiter);
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
 * @param bars - the bars read
 * @param header - the header as the file writes it, when it has one
 * @returns the sentences; empty when some bar has a volume
 */
export function volumeWarnings(
  layout: ColumnLayout,
  volume: number | undefined,
  bars: readonly Pick<OhlcvBar, 'volume'>[],
  header: string | undefined,
): string[] {
  if (volume === undefined)
    return [
      `no volume column (${header === undefined ? `rows of ${layout.names.length} fields without a header` : `header ${JSON.stringify(header)}`}): every bar's volume is 0`,
    ];
  if (bars.every((bar) => D(bar.volume).isZero()))
    return [`the volume (${layout.names[volume] || `column ${volume + 1}`}) is 0 on every bar`];
  return [];
}

import { D } from '../../core/model/index.ts';
import { decimalText, EMPTY_VALUES, volumeDecimalText } from './csv-numbers.ts';
import type { OhlcvBar } from './ohlcv-bar.ts';

/**
 * A row's prices and volume as a checked bar: each price above 0 (a 0 is missing data written as a
 * number, pandas' `fillna(0)` or a vendor's empty bar, that a backtest would fill at), the volume
 * non-negative, low <= open, close <= high, an empty volume read as 0, and under `adjust` the
 * prices scaled by Adj Close / Close.
 * @param prices - open, high, low and close as written (decimal point)
 * @param volumeText - the volume as written
 * @param adjCloseText - the Adj Close as written, when the layout has one
 * @param adjust - whether to scale the prices by Adj Close / Close
 * @returns the bar's values, or the reason the row is not a valid bar
 */
export function barFrom(
  prices: readonly string[],
  volumeText: string,
  adjCloseText: string | undefined,
  adjust: boolean,
): Omit<OhlcvBar, 'openTime' | 'line'> | string {
  const names = ['open', 'high', 'low', 'close'];
  const values: string[] = [];
  for (let k = 0; k < 4; k++) {
    const v = decimalText(prices[k] as string);
    if (v === null || v.startsWith('-'))
      return `${names[k]} ${JSON.stringify(prices[k])} is not a non-negative number`;
    if (D(v).isZero())
      return `${names[k]} ${JSON.stringify(prices[k])} is not a price above 0 (missing data written as 0?)`;
    values.push(v);
  }
  let [open, high, low, close] = values as [string, string, string, string];
  const volume = EMPTY_VALUES.has(volumeText.toLowerCase()) ? '0' : volumeDecimalText(volumeText);
  if (volume === null || volume.startsWith('-'))
    return `volume ${JSON.stringify(volumeText)} is not a non-negative number`;
  const [o, h, l, c] = [D(open), D(high), D(low), D(close)];
  // High below low says it all (open and close cannot be between them); else name each price outside.
  const broken = l.gt(h)
    ? [`high ${high} is below low ${low}`]
    : [
        ...(o.gt(h) ? [`open ${open} is above high ${high}`] : []),
        ...(o.lt(l) ? [`open ${open} is below low ${low}`] : []),
        ...(c.gt(h) ? [`close ${close} is above high ${high}`] : []),
        ...(c.lt(l) ? [`close ${close} is below low ${low}`] : []),
      ];
  if (broken.length > 0)
    return `bar ${open}/${high}/${low}/${close} (open/high/low/close) is not consistent: ${broken.join(', ')}`;
  if (adjust && adjCloseText !== undefined) {
    const adjClose = decimalText(adjCloseText);
    if (adjClose === null) return `adj close ${JSON.stringify(adjCloseText)} is not a number`;
    const factor = D(adjClose).div(c);
    [open, high, low, close] = [o, h, l, c].map((p) => p.mul(factor).toDecimalPlaces(8).toFixed()) as [
      string,
      string,
      string,
      string,
    ];
  }
  return { open, high, low, close, volume };
}

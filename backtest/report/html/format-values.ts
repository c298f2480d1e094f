import type { Dec } from '../../../core/model/index.ts';

/** What the report shows for a figure that is not defined for the run. */
export const NOT_DEFINED = 'n/a';

/**
 * A formatted figure, with the reason it is not defined when it is not, so nobody reads a bare
 * n/a as a fault.
 * @param text - the figure as a formatter wrote it
 * @param reason - why the figure is not defined (asked only when it is not)
 * @returns the text, or e.g. `n/a (no closed trades)`
 */
export function withWhyNotDefined(text: string, reason: () => string): string {
  return text === NOT_DEFINED ? `${NOT_DEFINED} (${reason()})` : text;
}

/**
 * Formats a fraction as a percentage. A value that is not zero but rounds to zero at `digits`
 * decimals keeps two significant digits, so a small loss does not read `-0.00 %`.
 * @param fraction - 0.1234 for 12.34 %, or null
 * @param digits - decimals shown
 * @returns e.g. `12.34 %`, `-0.0016 %`, or n/a
 */
export function formatPercent(fraction: number | null, digits = 2): string {
  if (fraction === null) return NOT_DEFINED;
  const percent = fraction * 100;
  const fixed = percent.toFixed(digits);
  if (Number(fixed) !== 0 || percent === 0) return `${fixed} %`;
  const decimals = Math.min(20, 1 - Math.floor(Math.log10(Math.abs(percent))));
  return `${percent.toFixed(decimals)} %`;
}

/**
 * Formats a plain ratio (Sharpe, profit factor).
 * @param value - the ratio, or null
 * @returns two decimals, or two significant digits below 0.1 so a small ratio (a profit factor of
 *   0.0033) does not read as zero; n/a for null
 */
export function formatRatio(value: number | null): string {
  if (value === null) return NOT_DEFINED;
  return value === 0 || Math.abs(value) >= 0.1 ? value.toFixed(2) : value.toPrecision(2);
}

/**
 * Formats money: two decimals from 100 up; below, six significant digits (fees can be tiny) but
 * never fewer than two decimals, so 2 reads `2.00` like every other amount.
 * @param value - the amount
 * @returns the amount as text, exact digits from the Decimal
 */
export function formatMoney(value: Dec): string {
  if (value.abs().gte(100)) return value.toFixed(2);
  const significant = value.toSignificantDigits(6);
  return significant.decimalPlaces() < 2 ? significant.toFixed(2) : significant.toFixed();
}

/**
 * Formats a price for people: at most 12 significant digits. A trade's price is volume-weighted
 * over its order's fills and may repeat forever (304 / 3); the CSV and JSON keep every digit.
 * @param value - the price
 * @returns e.g. `101.333333333`
 */
export function formatPrice(value: Dec): string {
  return value.toSignificantDigits(12).toFixed();
}

/**
 * Formats a duration like backtesting.py prints a timedelta: `3d 04:05:06`, with
 * milliseconds when there are any.
 * @param ms - milliseconds, or null
 * @returns the duration text, or n/a
 */
export function formatDuration(ms: number | null): string {
  if (ms === null) return NOT_DEFINED;
  const total = Math.round(ms);
  const days = Math.floor(total / 86_400_000);
  const rest = total - days * 86_400_000;
  const hh = String(Math.floor(rest / 3_600_000)).padStart(2, '0');
  const mm = String(Math.floor((rest % 3_600_000) / 60_000)).padStart(2, '0');
  const ss = String(Math.floor((rest % 60_000) / 1000)).padStart(2, '0');
  const millis = rest % 1000;
  return `${days}d ${hh}:${mm}:${ss}${millis === 0 ? '' : `.${String(millis).padStart(3, '0')}`}`;
}

/**
 * Formats epoch milliseconds as a UTC time for people.
 * @param ts - epoch milliseconds
 * @returns e.g. `2024-01-02 03:04:05 UTC` (milliseconds shown when not zero)
 */
export function formatTime(ts: number): string {
  const iso = new Date(ts).toISOString();
  const seconds = iso.endsWith('.000Z') ? iso.slice(0, 19) : iso.slice(0, 23);
  return `${seconds.replace('T', ' ')} UTC`;
}

/**
 * Formats a whole interval in its largest whole unit, as the report's notes name a step.
 * @param ms - milliseconds
 * @returns e.g. `1 day`, `2 days`, `1 h`, `32 min`, `15 s`
 */
export function formatInterval(ms: number): string {
  if (ms > 0 && ms % 86_400_000 === 0) return ms === 86_400_000 ? '1 day' : `${ms / 86_400_000} days`;
  return ms % 3_600_000 === 0
    ? `${ms / 3_600_000} h`
    : ms % 60_000 === 0
      ? `${ms / 60_000} min`
      : `${ms / 1000} s`;
}

import { escapeHtml as e } from './escape-html.ts';

/**
 * A name that may break after each underscore (`BINANCE_PERP_BTC_USDT`, a strategy id), so a long
 * one wraps in its cell instead of widening its table past the window; a screen reader reads it
 * whole.
 * @param name - the name, unescaped
 * @returns its HTML, escaped, with a `<wbr>` after each underscore
 */
export function breakableName(name: string): string {
  return e(name).replaceAll('_', '_<wbr>');
}

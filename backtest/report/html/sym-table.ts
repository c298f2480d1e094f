import type { Dec } from '../../../core/model/index.ts';
import type { SymFigures } from '../metrics/sym-breakdown.ts';
import type { BacktestResult } from '../result/backtest-result.ts';
import { breakableName } from './breakable-name.ts';
import { escapeHtml as e } from './escape-html.ts';
import { formatMoney, formatPercent, NOT_DEFINED, withWhyNotDefined } from './format-values.ts';

function signClass(value: Dec | number | null): string {
  const n = value === null ? 0 : typeof value === 'number' ? value : value.toNumber();
  return n > 0 ? 'num pos' : n < 0 ? 'num neg' : 'num';
}

/**
 * A figure's cell: a number stays on one line, while `n/a (why)` may wrap, so the reason does not
 * widen the table past the window.
 */
function figureCell(className: string, text: string): string {
  const wraps = text.startsWith(`${NOT_DEFINED} (`) ? ' why' : '';
  return `<td class="${className}${wraps}">${e(text)}</td>`;
}

function symRow(label: string, f: SymFigures, total: boolean): string {
  const head = total ? `<th scope="row">${e(label)}</th>` : `<td>${breakableName(label)}</td>`;
  const winRate = withWhyNotDefined(formatPercent(f.winRate), () => 'no closed trades');
  const contribution = withWhyNotDefined(
    formatPercent(f.returnContribution),
    () => 'the starting equity is not positive',
  );
  return `<tr${total ? ' class="total"' : ''}>${head}<td class="num">${f.trades}</td>${figureCell('num', winRate)}<td class="${signClass(f.netPnl)}">${e(formatMoney(f.netPnl))}</td><td class="num">${e(formatMoney(f.fees))}</td>${figureCell(signClass(f.returnContribution), contribution)}<td class="num">${e(formatPercent(f.exposureTime))}</td></tr>`;
}

/**
 * The report's per-sym table: a row per sym the run traded and one for the whole run, with the
 * figures of `result.symBreakdown` (each defined on `SymFigures`); nothing when the result has no
 * breakdown (a session's, or one written before Keel made it).
 * @param result - the backtest result
 * @param settleAsset - the currency of the money columns' labels
 * @returns the section's HTML and a line break, or the empty string
 */
export function symsSection(result: BacktestResult, settleAsset: string): string {
  const breakdown = result.symBreakdown;
  if (breakdown === undefined || breakdown.syms.length === 0) return '';
  const money = settleAsset === '' ? '' : ` [${e(settleAsset)}]`;
  const head = `<tr><th>Sym</th><th>Trades</th><th>Win rate</th><th>Net PnL${money}</th><th>Fees${money}</th><th>Return contribution</th><th>Exposure</th></tr>`;
  const rows = [
    ...breakdown.syms.map((s) => symRow(s.sym, s, false)),
    symRow('All syms', breakdown.total, true),
  ].join('\n');
  const open = result.openTrades.length;
  const leftOpen =
    open === 0
      ? ''
      : ` ${open} trade${open === 1 ? ' was' : 's were'} left open at the end: ${open === 1 ? 'its' : 'their'} PnL is in the equity's change, not in net PnL (${open === 1 ? 'its' : 'their'} entry fees are in fees).`;
  return `<section id="syms"><h2>By sym</h2><p class="muted">Net PnL is the closed trades' PnL after their fees (funding, interest and open positions are in the equity, not here); return contribution is net PnL / starting equity; exposure is the share of the run with a position open in the sym. Trades, net PnL, fees and return contribution add up to the run's row, whose net PnL sums the closed trades: it is not the equity's change.${leftOpen} syms.csv holds the same table.</p><table class="syms"><thead>${head}</thead><tbody>\n${rows}\n</tbody></table></section>\n`;
}

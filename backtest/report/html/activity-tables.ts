import { firstRecords } from '../log/record-log.ts';
import type { AlgoOrderRecord } from '../result/algo-order-record.ts';
import type { BacktestResult } from '../result/backtest-result.ts';
import type { DenialRecord } from '../result/denial-record.ts';
import type { TrailingStopRecord } from '../result/trailing-stop-record.ts';
import { escapeHtml as e } from './escape-html.ts';
import { formatPrice, formatTime } from './format-values.ts';

/** Above this many algo orders or denials the page lists the first ones and points to the CSV and JSON files. */
export const MAX_ACTIVITY_ROWS = 500;

function shownNote(shown: number, total: number, what: string, csv: string): string {
  return total > shown
    ? `<p class="muted">Showing the first ${shown} of ${total} ${what}; the full list is in ${csv} and result.json.</p>`
    : '';
}

/** An algo order's steps, one a line, escaped: each state with its time, and its trigger where a replace changed it. */
function stepsText(a: AlgoOrderRecord): string {
  return a.steps
    .map((step, i) => {
      // The Trigger column holds the last trigger: a step says its own only where it differs (a replace).
      const before = a.steps[i - 1]?.triggerPrice ?? a.triggerPrice;
      const trigger = before.eq(step.triggerPrice) ? '' : ` @${formatPrice(step.triggerPrice)}`;
      return e(`${step.state} ${formatTime(step.ts)}${trigger}`);
    })
    .join('<br>');
}

function algoRow(a: AlgoOrderRecord): string {
  const kind = a.algoOrderType === 'TP_SL' ? `TP_SL of ${a.attachedOrderId ?? '?'}` : a.algoOrderType;
  const condition = `${a.triggerType} ${a.conditionType === 'GTE' ? '≥' : '≤'} ${formatPrice(a.triggerPrice)}`;
  return `<tr><td>${e(a.clientAlgoOrderId)}</td><td>${e(a.strategyId ?? '')}</td><td>${e(a.sym)}</td><td>${e(kind)}</td><td>${e(a.side)}</td><td class="num">${e(a.qty.toFixed())}</td><td>${e(condition)}</td><td>${e(a.state)}</td><td>${stepsText(a)}</td><td>${e(a.orderId ?? '')}</td></tr>`;
}

/**
 * The algo orders as a compact table (absent from results that predate them): each standalone
 * trigger order and take-profit / stop-loss leg with its trigger, its last state, its steps and
 * the order it sent when it fired; capped at {@link MAX_ACTIVITY_ROWS} rows.
 * @param result - the result
 * @returns the section's HTML, or '' when the result holds no algo order list
 */
export function algoOrdersSection(result: BacktestResult): string {
  if (result.algoOrders === undefined) return '';
  const total = result.algoOrders.length;
  if (total === 0)
    return '<section id="algo-orders"><h2>Algo orders (0)</h2><p class="muted">No algo order (trigger, take-profit or stop-loss) was placed.</p></section>';
  const shown = firstRecords(result.algoOrders, MAX_ACTIVITY_ROWS);
  const head =
    '<tr><th>Ref</th><th>Strategy</th><th>Sym</th><th>Type</th><th>Side</th><th>Qty</th><th>Trigger</th><th>State</th><th>Steps</th><th>Sent order</th></tr>';
  return `<section id="algo-orders"><h2>Algo orders (${total})</h2>${shownNote(shown.length, total, 'algo orders', 'algo-orders.csv')}<table class="algo-orders activity"><thead>${head}</thead><tbody>\n${shown.map(algoRow).join('\n')}\n</tbody></table></section>`;
}

function denialRow(d: DenialRecord): string {
  return `<tr><td>${e(formatTime(d.ts))}</td><td>${e(d.strategyId)}</td><td>${e(d.source)}</td><td>${e(d.check)}</td><td>${e(d.intentKind)}</td><td>${e(d.ref)}</td><td>${e(d.sym ?? '')}</td><td class="reason">${e(d.reason)}</td></tr>`;
}

/**
 * The denied intents as a compact table with their count (absent from results that predate
 * them); capped at {@link MAX_ACTIVITY_ROWS} rows.
 * @param result - the result
 * @returns the section's HTML, or '' when the result holds no denial list
 */
export function denialsSection(result: BacktestResult): string {
  if (result.denials === undefined) return '';
  const total = result.denials.length;
  if (total === 0)
    return '<section id="denials"><h2>Denied intents (0)</h2><p class="muted">No intent was denied by the kernel or the risk gate, and the venue refused no command.</p></section>';
  const shown = firstRecords(result.denials, MAX_ACTIVITY_ROWS);
  const head =
    '<tr><th>Time</th><th>Strategy</th><th>Source</th><th>Check</th><th>Intent</th><th>Ref</th><th>Sym</th><th>Reason</th></tr>';
  return `<section id="denials"><h2>Denied intents (${total})</h2>${shownNote(shown.length, total, 'denied intents', 'denials.csv')}<table class="denials activity"><thead>${head}</thead><tbody>\n${shown.map(denialRow).join('\n')}\n</tbody></table></section>`;
}

function offsetText(t: TrailingStopRecord): string {
  const unit = t.offsetType === 'TICKS' ? ' ticks' : t.offsetType === 'BPS' ? ' bps' : '';
  const activation = t.activationPrice === undefined ? '' : `, from ${formatPrice(t.activationPrice)}`;
  return `${t.offset.toFixed()}${unit} on ${t.triggerOn}${activation}`;
}

function trailingRow(t: TrailingStopRecord): string {
  const steps = t.steps
    .map((step) =>
      e(
        `${step.status} ${formatTime(step.ts)}${step.stopPrice === undefined ? '' : ` @${formatPrice(step.stopPrice)}`}`,
      ),
    )
    .join('<br>');
  const stop = t.stopPrice === undefined ? '' : formatPrice(t.stopPrice);
  const cross = t.crossPrice === undefined ? '' : String(t.crossPrice);
  return `<tr><td>${e(t.ref)}</td><td>${e(t.strategyId)}</td><td>${e(t.sym)}</td><td>${e(t.side)}</td><td class="num">${e(t.qty.toFixed())}</td><td>${e(offsetText(t))}</td><td class="num">${e(stop)}</td><td class="num">${e(cross)}</td><td>${e(t.cancelReason === undefined ? t.status : `${t.status} (${t.cancelReason})`)}</td><td>${steps}</td></tr>`;
}

/**
 * The trailing stops Keel emulated, as a compact table (absent when the run placed none): each
 * with its offset and price source, its last stop price, the price that crossed it, its status
 * and its status changes; its MARKET order, when it triggered, is in the orders under the same
 * reference. Capped at {@link MAX_ACTIVITY_ROWS} rows.
 * @param result - the result
 * @returns the section's HTML, or '' when the result holds no trailing stop
 */
export function trailingStopsSection(result: BacktestResult): string {
  const stops = result.trailingStops ?? [];
  if (stops.length === 0) return '';
  const shown = stops.slice(0, MAX_ACTIVITY_ROWS);
  const head =
    '<tr><th>Ref</th><th>Strategy</th><th>Sym</th><th>Side</th><th>Qty</th><th>Offset</th><th>Stop</th><th>Crossed at</th><th>Status</th><th>Steps</th></tr>';
  return `<section id="trailing-stops"><h2>Trailing stops, emulated by Keel (${stops.length})</h2>${shownNote(shown.length, stops.length, 'trailing stops', 'trailing-stops.csv')}<table class="trailing-stops activity"><thead>${head}</thead><tbody>\n${shown.map(trailingRow).join('\n')}\n</tbody></table></section>`;
}

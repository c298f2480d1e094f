import type { CashFlowRecord } from '../../backtest/report/index.ts';
import { type Dec, parseDecimal } from '../../core/model/index.ts';
import type { MarginLoanStatementWire, StatementWire } from '../../core/venue/index.ts';

/**
 * One statement entry as a session keeps it: the key it is deduped by, and either the cash-flow
 * record it becomes or, for a LIQUIDATION_FEE, the fee (a liquidation fill's fee, which the
 * session already has from the venue's liquidation pushes: not a cash flow, as in a backtest).
 */
export type StatementItem =
  | { readonly key: string; readonly kind: 'cashFlow'; readonly record: CashFlowRecord }
  | { readonly key: string; readonly kind: 'liquidationFee'; readonly coin: string; readonly amount: Dec }
  /** Its type is not one this endpoint is read for (e.g. a borrow on the trading statement). */
  | { readonly key: string; readonly kind: 'ignored' }
  /** It lacks a field Keel needs (coin, amount or time), or its amount is not a decimal. */
  | { readonly key: string; readonly kind: 'unreadable'; readonly why: string };

/**
 * The key an entry is deduped by: its id when the venue gives one, else its type, coin, sym,
 * time and amount together (Keel's choice: two entries alike in all of these are taken as one).
 */
function keyOf(
  endpoint: string,
  entry: { id?: string; type: string; coin?: string; sym?: string; createAt?: number },
  amount: string | undefined,
): string {
  if (entry.id !== undefined) return `${endpoint}:${entry.id}`;
  return `${endpoint}:${entry.type}|${entry.coin ?? ''}|${entry.sym ?? ''}|${entry.createAt ?? ''}|${amount ?? ''}`;
}

function amountOf(text: string | undefined, where: string): Dec | string {
  if (text === undefined) return `${where} has no amount`;
  try {
    return parseDecimal(text, `${where} amount`);
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * Reads one entry of the trading statement (`GET /api/v1/trading/statement`): FUNDING_FEE and
 * DEDUCT_INTEREST become the cash flows a backtest's result carries, signed as the venue books
 * them (negative = paid); LIQUIDATION_FEE is kept apart (see {@link StatementItem}); other types
 * are ignored (the loan statement is read for borrows and repays). The amount is `amount`, else
 * the spec's `deltaAmount`.
 * @param entry - the decoded entry
 * @returns the item
 */
export function tradingStatementItem(entry: StatementWire): StatementItem {
  const text = entry.amount ?? entry.deltaAmount;
  const key = keyOf('statement', entry, text);
  if (entry.type !== 'FUNDING_FEE' && entry.type !== 'DEDUCT_INTEREST' && entry.type !== 'LIQUIDATION_FEE')
    return { key, kind: 'ignored' };
  const where = `statement entry ${entry.id ?? ''} (${entry.type})`.replace('  ', ' ');
  if (entry.coin === undefined) return { key, kind: 'unreadable', why: `${where} has no coin` };
  if (entry.createAt === undefined) return { key, kind: 'unreadable', why: `${where} has no createAt` };
  const amount = amountOf(text, where);
  if (typeof amount === 'string') return { key, kind: 'unreadable', why: amount };
  if (entry.type === 'LIQUIDATION_FEE') return { key, kind: 'liquidationFee', coin: entry.coin, amount };
  return {
    key,
    kind: 'cashFlow',
    record: {
      ts: entry.createAt,
      kind: entry.type,
      asset: entry.coin,
      amount,
      ...(entry.sym === undefined ? {} : { sym: entry.sym }),
    },
  };
}

/**
 * Reads one entry of the margin-loan statement (`GET .../marginLoan/loan/statement`) for the
 * loans' principal: BORROW credits the balance (positive), REPAY debits it (negative), whatever
 * sign the venue writes. Its interest and liquidation-fee entries are ignored: the trading
 * statement lists them too (per public venue docs), and reading both would count them twice.
 * @param entry - the decoded entry
 * @returns the item
 */
export function loanStatementItem(entry: MarginLoanStatementWire): StatementItem {
  const key = keyOf('loan', entry, entry.amount);
  if (entry.type !== 'BORROW' && entry.type !== 'REPAY') return { key, kind: 'ignored' };
  const where = `loan statement entry ${entry.id ?? ''} (${entry.type})`.replace('  ', ' ');
  if (entry.createAt === undefined) return { key, kind: 'unreadable', why: `${where} has no createAt` };
  const amount = amountOf(entry.amount, where);
  if (typeof amount === 'string') return { key, kind: 'unreadable', why: amount };
  return {
    key,
    kind: 'cashFlow',
    record: {
      ts: entry.createAt,
      kind: entry.type,
      asset: entry.coin,
      amount: entry.type === 'BORROW' ? amount.abs() : amount.abs().neg(),
    },
  };
}

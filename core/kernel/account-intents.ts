import type { BorrowIntent, ClosePositionIntent, PositionSide, RepayIntent } from '../model/index.ts';
import { toDecimal } from './order-amounts.ts';
import type { OrderFactoryState } from './order-defaults.ts';
import type { LoanInput } from './order-inputs.ts';

/**
 * A market close of a position. In BOTH mode without a side, the non-flat leg (LONG first) is
 * closed.
 * @param state - what defaults are computed from
 * @param sym - the symbol
 * @param positionSide - the leg; default NONE in NET mode
 * @returns the intent
 */
export function closePositionIntent(
  state: OrderFactoryState,
  sym: string,
  positionSide: PositionSide | undefined,
): ClosePositionIntent {
  let side: PositionSide = positionSide ?? 'NONE';
  if (positionSide === undefined && state.positionMode() === 'BOTH') {
    side = state.positionQty(sym, 'LONG').isZero() ? 'SHORT' : 'LONG';
  }
  return { kind: 'closePosition', ref: state.nextRef(), sym, positionSide: side };
}

/**
 * The fields a borrow and a repay share, with the amount as an exact Decimal.
 * @param state - what defaults are computed from
 * @param input - exchange, coin, amount
 * @returns the fields, without `kind`
 * @throws TypeError when the amount is not a finite number or a decimal
 */
export function loanFields(
  state: OrderFactoryState,
  input: LoanInput,
): Omit<BorrowIntent | RepayIntent, 'kind'> {
  const { exchange, coin } = input;
  return {
    ref: input.ref ?? state.nextRef(),
    exchange,
    coin,
    amount: toDecimal(input.amount, 'amount'),
  };
}

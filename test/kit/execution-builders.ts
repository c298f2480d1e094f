import { D, type Execution } from '../../core/model/index.ts';

let nextId = 0;

/**
 * Builds a model Execution (a fill as the venue reports it) with zero fee, zero rebate and
 * zero rpnl, on BINANCE_PERP_BTC_USDT in NET mode, unless told otherwise.
 * @param fields - side, quantity, price and timestamp at least; quantity and price as strings
 * @returns the execution
 * @example
 * anExecution({ side: 'BUY', quantity: '1', price: '100', timestamp: 0, fee: '0.1' })
 */
export function anExecution(
  fields: Pick<Execution, 'side' | 'timestamp'> & {
    readonly quantity: string;
    readonly price: string;
    readonly fee?: string;
    readonly rebate?: string;
  } & Partial<Omit<Execution, 'quantity' | 'price' | 'fee' | 'rebate'>>,
): Execution {
  nextId += 1;
  const { quantity, price, fee, rebate, ...rest } = fields;
  return {
    transactionId: `t${nextId}`,
    portfolioId: 'p1',
    orderId: `o${nextId}`,
    clientOrderId: `c${nextId}`,
    sym: 'BINANCE_PERP_BTC_USDT',
    positionSide: 'NONE',
    feeCoin: 'USDT',
    rpnl: D(0),
    execType: 'TAKER',
    ...rest,
    quantity: D(quantity),
    price: D(price),
    fee: D(fee ?? '0'),
    rebate: D(rebate ?? '0'),
  };
}

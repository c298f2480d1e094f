import fc from 'fast-check';
import type { SimVenueOptions } from '../../backtest/sim/index.ts';
import type { Intent, PositionMode, PositionSide } from '../../core/model/index.ts';
import { D } from '../../core/model/index.ts';
import { anEthSpot, anInstrument } from './instrument-builders.ts';
import { aLimit, aMarket, aQuote, aSim, type SimUnderTest } from './sim-builders.ts';

/** ETH/USDT spot on OKX (quoted 2000 / 2001 by {@link aTwoExchangeEthSim}). */
export const OKX_ETH = 'OKX_SPOT_ETH_USDT';
/** ETH/USDT spot on Binance (quoted 2002 / 2003 by {@link aTwoExchangeEthSim}). */
export const BINANCE_ETH = 'BINANCE_SPOT_ETH_USDT';

/**
 * A sim on two ETH/USDT spot syms sharing one ETH balance (taker 10 bps, maker 8 bps, tick 0.01),
 * 10 000 USDT, quoted at time 0: 2000 / 2001 on OKX and 2002 / 2003 on Binance, 5 ETH a side.
 * @param overrides - options to replace
 * @returns the sim and the events it emits
 */
export function aTwoExchangeEthSim(overrides: Partial<SimVenueOptions> = {}): SimUnderTest {
  const fees = { maker: D('0.0008'), taker: D('0.001'), markup: D('0'), fixedPerFill: D('0') };
  const t = aSim({
    instruments: [
      anEthSpot({ tickSize: D('0.01') }),
      anInstrument(BINANCE_ETH, { tickSize: D('0.01'), defaultLeverage: D(1), fees }),
    ],
    startingBalances: { USDT: D('10000') },
    ...overrides,
  });
  t.sim.onMarket(aQuote(0, 2000, 5, 2001, 5, OKX_ETH));
  t.sim.onMarket(aQuote(0, 2002, 5, 2003, 5, BINANCE_ETH));
  return t;
}

/**
 * Random commands on the two ETH syms of {@link aTwoExchangeEthSim}: market buys and sells, resting
 * sells at 2500 (reduce-only or not), borrows of OKX ETH, and closes of one sym (a leg or all of it)
 * or of both in either order. Refs are `c0`, `c1`... in order.
 * @param positionMode - NET (positionSide NONE) or BOTH (LONG or SHORT on orders)
 * @param maxLength - most commands
 * @returns an arbitrary list of commands
 */
export function arbitrarySharedEthCommands(
  positionMode: PositionMode,
  maxLength = 10,
): fc.Arbitrary<Intent[]> {
  const sym = fc.constantFrom(OKX_ETH, BINANCE_ETH);
  const side = fc.constantFrom<'BUY' | 'SELL'>('BUY', 'SELL');
  const leg =
    positionMode === 'NET'
      ? fc.constant<PositionSide>('NONE')
      : fc.constantFrom<PositionSide>('LONG', 'SHORT');
  const qty = fc.constantFrom('0.5', '1', '2');
  const command: fc.Arbitrary<(ref: string) => Intent> = fc.oneof(
    fc
      .record({ sym, side, qty, leg })
      .map((c) => (ref: string) => aMarket(ref, c.side, c.qty, { sym: c.sym, positionSide: c.leg })),
    fc
      .record({ sym, qty, leg, reduceOnly: fc.boolean() })
      .map(
        (c) => (ref: string) =>
          aLimit(ref, 'SELL', c.qty, '2500', { sym: c.sym, positionSide: c.leg, reduceOnly: c.reduceOnly }),
      ),
    qty.map(
      (amount) =>
        (ref: string): Intent => ({ kind: 'borrow', ref, exchange: 'OKX', coin: 'ETH', amount: D(amount) }),
    ),
    fc.record({ sym, leg: fc.constantFrom<PositionSide>('NONE', 'LONG', 'SHORT') }).map(
      (c) =>
        (ref: string): Intent => ({ kind: 'closePosition', ref, sym: c.sym, positionSide: c.leg }),
    ),
    fc.constantFrom([OKX_ETH, BINANCE_ETH], [BINANCE_ETH, OKX_ETH]).map(
      (symList) =>
        (ref: string): Intent => ({ kind: 'closePositions', ref, symList }),
    ),
  );
  return fc.array(command, { maxLength }).map((commands) => commands.map((make, i) => make(`c${i}`)));
}

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SimVenueOptions } from '../../../backtest/sim/index.ts';
import { D } from '../../../core/model/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { arbitrarySession, type SimStep } from '../../kit/sim-arbitraries.ts';
import { aSim, BTC } from '../../kit/sim-builders.ts';

const MMR = D('0.004');

/**
 * Replays a session and checks every Positions-channel view against the formulas on its own
 * fields: the margin and maintenance margin the venue keeps between fills and marks must never be
 * those of an older qty, average price, mark or leverage.
 */
function viewsAgree(
  options: Partial<SimVenueOptions>,
  contractSize: string,
  session: readonly SimStep[],
): void {
  const t = aSim(options);
  for (const step of session) {
    if ('event' in step) t.sim.onMarket(step.event);
    else {
      t.send(step.intent);
      t.sim.advanceTo(t.sim.now());
    }
  }
  const size = D(contractSize);
  for (const { position } of t.of('position')) {
    const value = position.positionQty.abs().mul(size).mul(position.markPrice);
    expect(position.positionValue.toFixed()).toBe(value.toFixed());
    expect(position.positionMargin.toFixed()).toBe(value.div(position.leverage).toFixed());
    expect(position.positionMM.toFixed()).toBe(value.mul(MMR).toFixed());
    // qty x size x (mark - avgPrice), up to the average price's 40-digit rounding and the half unit
    // of the 12th place each part close's cost share may be rounded by (the venue takes unrealized
    // PnL from the cost, and a part close keeps the average price)
    const sized = position.positionQty.mul(size);
    const pnl = sized.mul(position.markPrice.minus(position.avgPrice));
    const partCloses = D(session.length).mul('0.5e-12').mul(size);
    const rounding = sized
      .abs()
      .mul(D(10).pow(position.avgPrice.e - 39))
      .plus(partCloses);
    expect(
      position.unrealizedPNL.minus(pnl).abs().lte(rounding),
      `${position.unrealizedPNL.toFixed()} vs ${pnl.toFixed()}`,
    ).toBe(true);
    // a finite decimal (prices and quantities of 2-3 places, costs rounded to 12): no 40-digit rounding
    expect(position.unrealizedPNL.decimalPlaces()).toBeLessThanOrEqual(16);
  }
}

describe('sim venue: position views (property)', () => {
  for (const contractSize of ['1', '0.01']) {
    it(`reports margin = value / leverage and maintenance = value x mmr at every update (contract size ${contractSize})`, () => {
      fc.assert(
        fc.property(arbitrarySession(), fc.constantFrom('5', '20'), (session, leverage) => {
          const options: Partial<SimVenueOptions> = {
            instruments: [anInstrument(BTC, { contractSize: D(contractSize) })],
            leverage: { [BTC]: D(leverage) },
            maintenanceMarginRate: MMR,
            startingBalances: { USDT: D('1000000') },
            fillModel: 'touch',
          };
          viewsAgree(options, contractSize, session);
        }),
        { numRuns: 100 },
      );
    });
  }
});

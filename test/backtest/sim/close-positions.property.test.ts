import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D, type PositionMode } from '../../../core/model/index.ts';
import {
  arbitrarySharedEthCommands,
  aTwoExchangeEthSim,
  BINANCE_ETH,
  OKX_ETH,
} from '../../kit/shared-eth-balance.ts';
import { aTrade } from '../../kit/sim-builders.ts';

/** OKX lends ETH at no interest: the balance holds borrowed coins, and no interest is owed. */
const ETH_LOANS = {
  assets: { 'OKX:ETH': { annualRate: D('0'), userQuota: D('100'), pool: D('100') } },
  maxBorrowLtv: D('0.9'),
  ltvWarningLevel: D('0.9'),
};

describe('sim venue: closing spot holdings (property)', () => {
  for (const positionMode of ['NET', 'BOTH'] as const satisfies readonly PositionMode[]) {
    it(`never takes the shared ETH balance below zero, borrowed ETH included, nor leaves an open sell without its ETH (${positionMode})`, () => {
      fc.assert(
        fc.property(
          arbitrarySharedEthCommands(positionMode),
          fc.constantFrom('0', '1'),
          (commands, startingEth) => {
            const t = aTwoExchangeEthSim({
              startingBalances: { USDT: D('100000'), ETH: D(startingEth) },
              positionMode,
              loans: ETH_LOANS,
            });
            commands.forEach((command, i) => {
              t.send(command);
              t.sim.advanceTo(i + 1);
            });
            // a trade through 2500 on each sym fills every resting sell: each still had its ETH frozen
            const end = commands.length + 1;
            t.sim.onMarket(aTrade(end, 2600, 100, 'BUY', OKX_ETH));
            t.sim.onMarket(aTrade(end, 2600, 100, 'BUY', BINANCE_ETH));
            const negative = t
              .of('asset')
              .filter((e) => e.asset.coin === 'ETH' && e.asset.balance.lt(0))
              .map((e) => `${e.asset.balance.toFixed()} ETH at ${e.ts}`);
            expect(negative).toEqual([]);
          },
        ),
        { numRuns: 300 },
      );
    });
  }
});

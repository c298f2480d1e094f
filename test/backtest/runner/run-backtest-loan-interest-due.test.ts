import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D } from '../../../core/model/index.ts';
import { flatBarsRecordingIn } from '../../kit/bar-recordings.ts';
import { barRunOptions } from '../../kit/bar-run-options.ts';
import { anEthSpot } from '../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const ETH = 'OKX_SPOT_ETH_USDT';
const T0 = Date.UTC(2024, 0, 1);
const aTempDir = tempDirsRemovedAfterAll('keel-loan-interest-due-');

/**
 * Borrows 5 ETH and sells them; ten minutes into the fourth hour buys back what a repay now needs
 * as its loan says (principal and interestDue, less the ETH balance the three charged hours took
 * below zero), repays the 5, then sells short again from a new borrow.
 */
const buyBackWhatIsDue = (seen: string[]) =>
  defineStrategy({
    name: 'loan-buy-back-due',
    params: z.object({}),
    state: () => ({ bars: 0 }),
    onStart: (ctx) => ctx.watchBars(ETH, '1m'),
    onBar: (ctx) => {
      const bars = ++ctx.state.bars;
      if (bars === 1)
        return [
          ctx.order.borrow({ exchange: 'OKX', coin: 'ETH', amount: '5' }),
          ctx.order.market({ sym: ETH, side: 'SELL', qty: '5' }),
        ];
      if (bars === 190) {
        const [loan] = ctx.loans('ETH');
        if (loan === undefined) return undefined;
        seen.push(`interest ${loan.interest.toFixed()} due ${loan.interestDue.toFixed()}`);
        const need = loan.principal.plus(loan.interestDue).minus(ctx.balance('ETH'));
        return [ctx.order.market({ sym: ETH, side: 'BUY', qty: need, round: true })];
      }
      if (bars === 192) return [ctx.order.repay({ exchange: 'OKX', coin: 'ETH', amount: '5' })];
      if (bars === 194) {
        seen.push(`ETH after the repay ${ctx.balance('ETH').toFixed()}`);
        return [
          ctx.order.borrow({ exchange: 'OKX', coin: 'ETH', amount: '1' }),
          ctx.order.market({ sym: ETH, side: 'SELL', qty: '1' }),
        ];
      }
      return undefined;
    },
  });

describe('backtest runner: a loan tells the strategy the interest a repay now charges', () => {
  let recording = '';
  beforeAll(async () => {
    recording = await flatBarsRecordingIn(aTempDir(), 200, T0, ETH);
  });

  it('gives interestDue, the started hour a repay charges, so a buy-back of principal and it leaves no ETH owed', async () => {
    const seen: string[] = [];
    const result = await runBacktest({
      ...barRunOptions(recording, [anEthSpot()], [{ id: 's', strategy: buyBackWhatIsDue(seen) }]),
      startingCash: D(1000),
      closeAtEnd: false,
      // 87.6 % a year: 0.0005 ETH an hour on 5 ETH
      sim: { loans: { assets: { 'OKX:ETH': { annualRate: D('0.876'), userQuota: D(100), pool: D(100) } } } },
    });
    // three hours charged (0.0015), the fourth under way: a repay now charges it whole
    expect(seen).toEqual(['interest 0.0015 due 0.0005', 'ETH after the repay 0']);
    const fills = [...result.fills].map((f) => `${f.side} ${f.quantity.toFixed()}`);
    expect(fills).toEqual(['SELL 5', 'BUY 5.002', 'SELL 1']);
    expect([...(result.denials ?? [])]).toEqual([]);
  });
});

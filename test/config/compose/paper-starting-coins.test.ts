import { describe, expect, it } from 'vitest';
import { formatMoney } from '../../../backtest/report/index.ts';
import { runConfiguredSession } from '../../../config/compose/session-run.ts';
import { formatSessionSummary } from '../../../config/compose/session-summary.ts';
import { D } from '../../../core/model/index.ts';
import { buyOncePaperConfig, BUY_ONCE_SYM as ETH } from '../../kit/buy-once-paper-config.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const newDir = tempDirsRemovedAfterEach('keel-paper-coins-');

describe('a paper session starting with coins besides its cash', () => {
  it('starts its equity with the coins at their first price, so the summary, the curve and the return agree', async () => {
    const dir = newDir();
    const loaded = buyOncePaperConfig(dir, {
      durationSec: 2,
      logLevel: 'warn',
      startingCash: '{ USDT: 100000, ETH: 3 }',
    });
    const outcome = await runConfiguredSession(loaded, { handleSignals: false });
    if (!outcome.ok) throw new Error(outcome.problems.join('\n'));
    // The buy filled: the venue reported the account after ETH had a price.
    expect(outcome.fills).toHaveLength(1);
    // Two seconds of a tiny buy: the PnL is fees and the coins' move, never the coins' worth.
    const pnl = outcome.endEquity.sub(outcome.startEquity);
    expect(pnl.abs().toNumber()).toBeLessThan(100);
    expect(Math.abs(outcome.result.metrics.totalReturn ?? 1)).toBeLessThan(0.001);
    const config = outcome.result.meta.runConfig as {
      startingCoins?: { ETH?: { price: string; valuedBy: string } };
    };
    const price = D(config.startingCoins?.ETH?.price ?? '0');
    expect(config.startingCoins?.ETH?.valuedBy).toBe(ETH);
    // The synthetic ETH trades around 3400: the 3 ETH count in the start, at their first price.
    expect(price.gt(1_000)).toBe(true);
    expect(outcome.startEquity.toFixed()).toBe(D(100_000).plus(price.mul(3)).toFixed());
    const curve = outcome.result.equityCurve;
    expect(curve[0]?.equity.toFixed()).toBe(outcome.startEquity.toFixed());
    expect(curve.at(-1)?.equity.toFixed()).toBe(outcome.endEquity.toFixed());
    expect(formatSessionSummary(outcome, true)).toContain(`, equity ${formatMoney(outcome.startEquity)} -> `);
    outcome.result.dispose?.();
  }, 30_000);
});

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type BacktestRunOptions, runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { barsRecordingIn } from '../../kit/bar-recordings.ts';
import { barRunOptions } from '../../kit/bar-run-options.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2024, 0, 1);
const MIN = 60_000;
const aTempDir = tempDirsRemovedAfterAll('keel-runner-on-start-');

/** What the account looked like to a strategy's onStart and to its first bar. */
interface AccountSeen {
  onStart?: { equity: string; balance: string };
  firstBar?: { equity: string; balance: string };
}

function accountReader(seen: AccountSeen) {
  return defineStrategy({
    name: 'account-reader',
    params: z.object({}),
    onStart: (ctx) => {
      seen.onStart = { equity: ctx.equity().toFixed(), balance: ctx.balance('USDT').toFixed() };
      ctx.watchBars(BTC, '1m');
    },
    onBar: (ctx) => {
      seen.firstBar ??= { equity: ctx.equity().toFixed(), balance: ctx.balance('USDT').toFixed() };
    },
  });
}

async function seenBy(extra: Partial<BacktestRunOptions>): Promise<AccountSeen> {
  const bars = Array.from({ length: 6 }, (_, i) => [100 + i, 101 + i, 99 + i, 100.5 + i]);
  const recording = await barsRecordingIn(aTempDir(), bars, T0, BTC);
  const seen: AccountSeen = {};
  const result = await runBacktest({
    ...barRunOptions(
      recording,
      [anInstrument(BTC)],
      [{ id: 'acc', strategy: accountReader(seen), params: {} }],
    ),
    ...extra,
  });
  result.dispose?.();
  return seen;
}

describe('backtest runner: the account a strategy starts with', () => {
  it('is funded when onStart runs, as in paper and live, with or without a warm-up', async () => {
    for (const extra of [{}, { warmUp: { periodMs: 2 * MIN } }]) {
      const seen = await seenBy(extra);
      expect(seen.onStart).toEqual({ equity: '10000', balance: '10000' });
      expect(seen.firstBar).toEqual({ equity: '10000', balance: '10000' });
    }
  });
});

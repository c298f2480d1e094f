import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D, ZERO } from '../../../core/model/index.ts';
import { flatBarsRecordingIn } from '../../kit/bar-recordings.ts';
import { barRunOptions } from '../../kit/bar-run-options.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const ETH_USDT = 'OKX_SPOT_ETH_USDT';
const ETH_BTC = 'OKX_SPOT_ETH_BTC';
const BTC_USDT = 'OKX_SPOT_BTC_USDT';
const T0 = Date.UTC(2024, 0, 1);
const aTempDir = tempDirsRemovedAfterAll('keel-shared-coin-close-');
const noFees = { maker: ZERO, taker: ZERO, markup: ZERO, fixedPerFill: ZERO };

/** A triangle: buys 1 ETH with USDT, sells it for BTC, sells the BTC for USDT (all at 100, no fees). */
const triangle = defineStrategy({
  name: 'triangle',
  params: z.object({}),
  state: () => ({ bars: 0 }),
  onStart: (ctx) => ctx.watchBars(ETH_USDT, '1m'),
  onBar: (ctx) => {
    ctx.state.bars++;
    if (ctx.state.bars === 1) return [ctx.order.market({ sym: ETH_USDT, side: 'BUY', qty: '1' })];
    if (ctx.state.bars === 3) return [ctx.order.market({ sym: ETH_BTC, side: 'SELL', qty: '1' })];
    if (ctx.state.bars === 5) return [ctx.order.market({ sym: BTC_USDT, side: 'SELL', qty: '100' })];
    return undefined;
  },
});

describe('backtest runner: the end-of-run close of spot holdings that share their coins', () => {
  it('closes them one after another, each once the buy-back before it put the coin in the balance', async () => {
    const recordings = await Promise.all(
      [ETH_USDT, ETH_BTC, BTC_USDT].map((sym) => flatBarsRecordingIn(aTempDir(), 10, T0, sym)),
    );
    const instruments = [ETH_USDT, ETH_BTC, BTC_USDT].map((sym) =>
      anInstrument(sym, { defaultLeverage: D(1), fees: noFees }),
    );
    const result = await runBacktest({
      ...barRunOptions(recordings[0] as string, instruments, [{ id: 's', strategy: triangle }]),
      recordings,
      startingCash: D(1000),
      closeAtEnd: true,
    });
    // The holdings: ETH/USDT +1, ETH/BTC -1, BTC/USDT -100, while the ETH and BTC balances are 0.
    // Selling the ETH/USDT holding needs the ETH the ETH/BTC buy-back brings, which needs the BTC
    // the BTC/USDT buy-back brings: three rounds.
    const fills = [...result.fills].map((f) => `${f.sym} ${f.side} ${f.quantity.toFixed()}`);
    expect(fills.slice(3)).toEqual([`${BTC_USDT} BUY 100`, `${ETH_BTC} BUY 1`, `${ETH_USDT} SELL 1`]);
    expect(result.openTrades ?? []).toEqual([]);
    expect(result.metrics.equityFinal.toFixed()).toBe('1000');
  });
});

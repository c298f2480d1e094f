import { describe, expect, it } from 'vitest';
import { CommandSyms, intentSym } from '../../../core/kernel/command-syms.ts';
import { D } from '../../../core/model/index.ts';
import { BTC, ETH } from '../../kit/kernel-events.ts';

describe('the syms of the commands sent lately', () => {
  it('names the sym of a command by its reference, the syms of a close of several positions', () => {
    const syms = new CommandSyms();
    syms.sent({ kind: 'cancelOrder', ref: 'c-1', target: 's-1', sym: BTC });
    syms.sent({ kind: 'closePositions', ref: 'c-2', symList: [BTC, ETH] });
    syms.sent({ kind: 'borrow', ref: 'c-3', exchange: 'BINANCE', coin: 'USDT', amount: D(100) });
    expect(['c-1', 'c-2', 'c-3', 'c-4'].map((ref) => syms.symOf(ref))).toEqual([
      BTC,
      `${BTC} ${ETH}`,
      undefined,
      undefined,
    ]);
  });

  it('forgets the oldest once its capacity of newer commands naming a sym were sent', () => {
    const syms = new CommandSyms(2);
    for (const ref of ['c-1', 'c-2', 'c-3'])
      syms.sent({ kind: 'cancelAlgoOrder', ref, target: 'a-1', sym: ref === 'c-1' ? ETH : BTC });
    expect(['c-1', 'c-2', 'c-3'].map((ref) => syms.symOf(ref))).toEqual([undefined, BTC, BTC]);
  });

  it('names the latest sym of a reference sent twice, and keeps it while the older one is forgotten', () => {
    const syms = new CommandSyms(2);
    syms.sent({ kind: 'cancelAlgoOrder', ref: 'c-1', target: 'a-1', sym: ETH });
    syms.sent({ kind: 'cancelAlgoOrder', ref: 'c-1', target: 'a-1', sym: BTC });
    expect(syms.symOf('c-1')).toBe(BTC);
    syms.sent({ kind: 'cancelAlgoOrder', ref: 'c-2', target: 'a-1', sym: ETH });
    expect(syms.symOf('c-1')).toBe(BTC);
    syms.sent({ kind: 'cancelAlgoOrder', ref: 'c-3', target: 'a-1', sym: ETH });
    expect(syms.symOf('c-1')).toBeUndefined();
  });

  it('keeps nothing at capacity 0', () => {
    const syms = new CommandSyms(0);
    syms.sent({ kind: 'cancelAlgoOrder', ref: 'c-1', target: 'a-1', sym: ETH });
    expect(syms.symOf('c-1')).toBeUndefined();
  });

  it('gives no sym for a cancel of listed orders or of every sym', () => {
    expect(intentSym({ kind: 'cancelOrders', ref: 'c-1', targets: ['s-1'] })).toBeUndefined();
    expect(intentSym({ kind: 'cancelOrders', ref: 'c-2', sym: ETH })).toBe(ETH);
  });
});

import { describe, expect, it } from 'vitest';
import type { StrategyIntent } from '../../../../core/model/index.ts';
import { ConcurrentCloses } from '../../../../core/venue/live/concurrent-closes.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const ETH = 'BINANCE_PERP_ETH_USDT';

function close(strategyId: string, sym: string): StrategyIntent {
  return {
    strategyId,
    intent: { kind: 'closePosition', ref: `${strategyId}-r-1`, sym, positionSide: 'NONE' },
  };
}

describe('the closes a live client has sent and not had answered', () => {
  it('names the other strategies closing the same sym at once', () => {
    const book = new ConcurrentCloses();
    expect(book.sending(close('alpha', BTC))).toEqual([]);
    expect(book.sending(close('beta', BTC))).toEqual([{ sym: BTC, others: ['alpha'] }]);
  });

  it('does not report a strategy’s own second close, or another sym', () => {
    const book = new ConcurrentCloses();
    book.sending(close('alpha', BTC));
    expect(book.sending(close('alpha', BTC))).toEqual([]);
    expect(book.sending(close('beta', ETH))).toEqual([]);
  });

  it('forgets a close once answered', () => {
    const book = new ConcurrentCloses();
    const first = close('alpha', BTC);
    book.sending(first);
    book.answered(first);
    const many: StrategyIntent = {
      strategyId: 'gamma',
      intent: { kind: 'closePositions', ref: 'g-r-1', symList: [BTC] },
    };
    expect(book.sending(many)).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { OutsideWindowSpans, outsideWindowText } from '../../../backtest/runner/outside-window-spans.ts';
import type { MarketEvent } from '../../../core/model/index.ts';

const ETH = 'BINANCE_PERP_ETH_USDT';

function markAt(recvTs: number): MarketEvent {
  return { kind: 'markPrice', sym: ETH, ts: recvTs, recvTs } as unknown as MarketEvent;
}

describe('outsideWindowText', () => {
  it("gives the span of a sym's events the window left out, and the window", () => {
    const spans = new OutsideWindowSpans();
    spans.note([markAt(Date.UTC(2024, 2, 5)), markAt(Date.UTC(2024, 2, 4))], (e) => e.recvTs);
    const text = outsideWindowText(spans, { from: Date.UTC(2024, 0, 1), to: Date.UTC(2024, 0, 7) });
    expect(text(ETH)).toBe(
      'held data for that sym only outside the window (from 2024-01-01T00:00:00.000Z to 2024-01-07T00:00:00.000Z): from 2024-03-04T00:00:00.000Z to 2024-03-05T00:00:00.000Z',
    );
    expect(text('BINANCE_PERP_BTC_USDT')).toBeUndefined();
  });
});

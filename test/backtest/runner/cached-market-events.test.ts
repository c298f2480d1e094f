import { describe, expect, it } from 'vitest';
import {
  CachedBar,
  CachedGap,
  CachedQuote,
  CachedTrade,
} from '../../../backtest/runner/cached-market-events.ts';
import { literalControlDecisions, pretenuringDecisions } from '../../kit/allocation-site-decisions.ts';

/**
 * V8's pretenuring decisions in a script that writes 100k events to an event cache, alternating
 * two kinds, then reads the cache six times and holds every event read (so the first ones survive
 * young collections, as a run's first events waiting in their batch do).
 * @param even - the event literal of the even rows (`i` is the row)
 * @param odd - the event literal of the odd rows
 */
function decisionsHoldingCachedEvents(even: string, odd: string): string[] {
  return pretenuringDecisions(`
    const { writeFileSync, mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { crc32 } = await import('node:zlib');
    const { encodeRow, readEventCache, STRIDE } = await import(repo('backtest/runner/event-cache-rows.ts'));
    const rows = 100_000;
    const data = new Float64Array(rows * STRIDE);
    const tradeIds: string[] = [];
    const syms = new Map();
    const intervals = new Map();
    const reasons = new Map();
    for (let i = 0; i < rows; i++) {
      const event = i % 2 === 0 ? ${even} : ${odd};
      encodeRow(event, data, i * STRIDE, tradeIds, syms, intervals, reasons);
    }
    const bytes = Buffer.from(data.buffer);
    const file = join(mkdtempSync(join(tmpdir(), 'keel-rows-')), 'events.bin');
    writeFileSync(file, bytes);
    const meta = {
      syms: [...syms.keys()],
      intervals: [...intervals.keys()],
      reasons: [...reasons.keys()],
      chunks: [{ rows, crc: crc32(bytes), tradeIds }],
    };
    const held = [];
    for (let round = 0; round < 6; round++)
      for await (const batch of readEventCache('recording', file, meta)) for (const event of batch) held.push(event);
    console.error(held.length);
  `);
}

describe('market events read back from the event cache', () => {
  it('are plain objects with the decoders fields in their order', () => {
    const quote = new CachedQuote('BTC', 1, 2, 100, 1.5, 100.1, 2.5);
    expect(Object.getPrototypeOf(quote)).toBe(Object.prototype);
    expect(quote).toStrictEqual({
      kind: 'quote',
      sym: 'BTC',
      ts: 1,
      recvTs: 2,
      bid: 100,
      bidQty: 1.5,
      ask: 100.1,
      askQty: 2.5,
    });
    expect(Object.keys(quote)).toEqual(['kind', 'sym', 'ts', 'recvTs', 'bid', 'bidQty', 'ask', 'askQty']);
    const trade = new CachedTrade('BTC', 1, 2, 't-1', 100, 0.5, 'SELL');
    expect(Object.getPrototypeOf(trade)).toBe(Object.prototype);
    expect(trade).toStrictEqual({
      kind: 'trade',
      sym: 'BTC',
      ts: 1,
      recvTs: 2,
      tradeId: 't-1',
      price: 100,
      qty: 0.5,
      side: 'SELL',
    });
    expect(Object.keys(trade)).toEqual(['kind', 'sym', 'ts', 'recvTs', 'tradeId', 'price', 'qty', 'side']);
  });

  it('have no allocation site: events that wait in their batch do not make V8 allocate later ones in the old generation', async () => {
    // A run's first events wait in their batch (and in transit to the strategies) through
    // young-generation collections: here every event read lives on.
    const decisions = decisionsHoldingCachedEvents(
      "{ kind: 'quote', sym: 'BTC', ts: i, recvTs: i, bid: 100, bidQty: 1, ask: 100.1, askQty: 2 }",
      "{ kind: 'trade', sym: 'BTC', ts: i, recvTs: i, tradeId: 't' + i, price: 100, qty: 1, side: 'BUY' }",
    );
    expect(decisions).toEqual([]);
    // The control: a literal held alike is judged, so the empty list above is V8 finding no site.
    expect(literalControlDecisions()).not.toEqual([]);
  }, 120_000);

  it('bars and gaps are plain objects with the decoders fields in their order', () => {
    const bar = new CachedBar('BTC', 60_000, 60_001, '1m', 0, 100, 101, 99, 100.5, 3.25, true);
    expect(Object.getPrototypeOf(bar)).toBe(Object.prototype);
    expect(bar).toStrictEqual({
      kind: 'bar',
      sym: 'BTC',
      ts: 60_000,
      recvTs: 60_001,
      interval: '1m',
      openTime: 0,
      open: 100,
      high: 101,
      low: 99,
      close: 100.5,
      volume: 3.25,
      closed: true,
    });
    const gap = new CachedGap('BTC', 5, 6, 1, 'reconnect');
    expect(Object.getPrototypeOf(gap)).toBe(Object.prototype);
    expect(gap).toStrictEqual({ kind: 'gap', sym: 'BTC', ts: 5, recvTs: 6, fromTs: 1, reason: 'reconnect' });
    expect(Object.keys(gap)).toEqual(['kind', 'sym', 'ts', 'recvTs', 'fromTs', 'reason']);
  });

  it('bars and gaps have no allocation site: a bar run does not have V8 allocate its bars in the old generation', async () => {
    // A bar strategy's every event is a bar; the first ones wait in their batch through
    // young-generation collections (here every event read lives on).
    const decisions = decisionsHoldingCachedEvents(
      "{ kind: 'bar', sym: 'BTC', ts: i, recvTs: i, interval: '1m', openTime: i, open: 1, high: 2, low: 0.5, close: 1.5, volume: 9, closed: true }",
      "{ kind: 'gap', sym: 'BTC', ts: i, recvTs: i, fromTs: i - 1, reason: 'reconnect' }",
    );
    expect(decisions).toEqual([]);
    expect(literalControlDecisions()).not.toEqual([]);
  }, 120_000);
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeFeedItem } from '../../../backtest/paper-venue/market-feed.ts';
import { gapOfRecordMessage, gapRecordMessage } from '../../../backtest/recording/index.ts';
import type { GapEvent } from '../../../core/model/index.ts';

const gapArb: fc.Arbitrary<GapEvent> = fc
  .record({
    sym: fc.string({ minLength: 1 }),
    fromTs: fc.integer({ min: 0, max: 4_102_444_800_000 }),
    length: fc.integer({ min: 0, max: 86_400_000 }),
    reason: fc.string(),
  })
  .map(({ sym, fromTs, length, reason }) => ({
    kind: 'gap',
    sym,
    fromTs,
    ts: fromTs + length,
    recvTs: fromTs + length,
    reason,
  }));

describe('gap record', () => {
  it('reads back the gap it was written for, through JSON', () => {
    fc.assert(
      fc.property(gapArb, (gap) => {
        const msg = JSON.parse(JSON.stringify(gapRecordMessage(gap))) as unknown;
        expect(gapOfRecordMessage(msg, gap.recvTs)).toEqual(gap);
      }),
    );
  });

  it('is not read from a venue push, nor from a gap record with a wrong field', () => {
    expect(gapOfRecordMessage({ arg: { channel: 'BBO', sym: 'X' }, data: {} }, 1)).toBeUndefined();
    expect(gapOfRecordMessage('pong', 1)).toBeUndefined();
    expect(gapOfRecordMessage({ keelGap: { sym: 'X', fromTs: 5, ts: 4, reason: 'r' } }, 1)).toBeUndefined();
    expect(gapOfRecordMessage({ keelGap: { sym: 'X', fromTs: '1', ts: 4, reason: 'r' } }, 1)).toBeUndefined();
  });

  it('is no push of a paper venue replaying the recording, nor a damaged line of it', () => {
    const msg = gapRecordMessage({ kind: 'gap', sym: 'X', fromTs: 1, ts: 2, recvTs: 2, reason: 'r' });
    expect(decodeFeedItem(msg, 2)).toBeNull();
    expect(decodeFeedItem({ keelGap: {} }, 2)).toBeInstanceOf(Error);
  });
});

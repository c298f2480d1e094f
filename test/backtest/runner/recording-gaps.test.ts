import { describe, expect, it } from 'vitest';
import { RecordingGaps } from '../../../backtest/runner/recording-gaps.ts';
import type { GapEvent } from '../../../core/model/index.ts';

const T = Date.UTC(2026, 0, 1);

function gap(fromTs: number, ts: number, sym = 'BTC'): GapEvent {
  return { kind: 'gap', sym, fromTs, ts, recvTs: ts, reason: 'its connection dropped' };
}

describe('gaps of a run’s recordings', () => {
  it('counts each gap once per recording, the first named, in the order of the recordings', () => {
    const gaps = new RecordingGaps(undefined);
    gaps.note('b.jsonl', gap(T, T + 1500));
    gaps.note('b.jsonl', gap(T, T + 1500));
    gaps.note('b.jsonl', gap(T + 60_000, T + 62_000));
    gaps.note('a.jsonl', gap(T, T + 3000, 'ETH'));
    expect(gaps.warnings(['a.jsonl', 'b.jsonl', 'b.jsonl', 'c.jsonl'])).toEqual([
      'recording a.jsonl: market data was missed 1 time while it was recorded (its connection dropped), for ETH from 2026-01-01T00:00:00.000Z to 2026-01-01T00:00:03.000Z (3 s); the run replayed the hole as a market without events',
      'recording b.jsonl: market data was missed 2 times while it was recorded (its connection dropped), the first for BTC from 2026-01-01T00:00:00.000Z to 2026-01-01T00:00:01.500Z (1.5 s); the run replayed each hole as a market without events',
    ]);
  });

  // One outage of a 2-sym recording (a gap record per sym) read "missed 2 times".
  it('counts the gaps of several syms over one span as one outage, naming its syms', () => {
    const gaps = new RecordingGaps(undefined);
    gaps.note('a.jsonl', gap(T, T + 1500, 'BTC'));
    gaps.note('a.jsonl', gap(T, T + 1500, 'ETH'));
    expect(gaps.warnings(['a.jsonl'])).toEqual([
      'recording a.jsonl: market data was missed 1 time while it was recorded (its connection dropped), for BTC, ETH from 2026-01-01T00:00:00.000Z to 2026-01-01T00:00:01.500Z (1.5 s); the run replayed the hole as a market without events',
    ]);
    gaps.note('a.jsonl', gap(T + 60_000, T + 62_000, 'BTC'));
    gaps.note('a.jsonl', gap(T + 60_000, T + 62_000, 'ETH'));
    expect(gaps.warnings(['a.jsonl'])).toEqual([
      expect.stringContaining(
        'missed 2 times while it was recorded (its connection dropped), the first for BTC, ETH from',
      ),
    ]);
  });

  it('leaves out a gap wholly outside the replay window', () => {
    const gaps = new RecordingGaps({ from: T + 10_000, to: T + 20_000 });
    gaps.note('a.jsonl', gap(T, T + 9_999));
    gaps.note('a.jsonl', gap(T + 20_000, T + 21_000));
    expect(gaps.warnings(['a.jsonl'])).toEqual([]);
    gaps.note('a.jsonl', gap(T + 5_000, T + 10_000));
    expect(gaps.warnings(['a.jsonl'])).toHaveLength(1);
  });
});

import { describe, expect, it } from 'vitest';
import {
  formatReplaySummary,
  NO_SYM,
  type SummarizableEvent,
  summarizeReplay,
} from '../../backtest/replay-summary.ts';

async function* batches(...lists: SummarizableEvent[][]): AsyncGenerator<SummarizableEvent[]> {
  yield* lists;
}

const ev = (kind: string, sym: string, ts: number): SummarizableEvent => ({ kind, sym, ts, recvTs: ts + 1 });

describe('replay summary', () => {
  it('counts events by symbol and kind, spans venue time and rates on the injected clock', async () => {
    let now = 1_000;
    const clock = { now: () => (now += 500) };
    const summary = await summarizeReplay(
      batches(
        [ev('quote', 'A', 60_000), ev('trade', 'A', 61_000)],
        [ev('quote', 'B', 59_000), ev('quote', 'A', 120_000)],
      ),
      clock,
    );
    expect(summary.events).toBe(4);
    expect(summary.bySymbol.get('A')).toEqual(
      new Map([
        ['quote', 2],
        ['trade', 1],
      ]),
    );
    expect(summary.firstTs).toBe(59_000);
    expect(summary.lastTs).toBe(120_000);
    expect(summary.wallMs).toBe(500);
    const text = formatReplaySummary(summary, 'Keel replay of test (SYNTHETIC session)');
    expect(text).toContain('Keel replay of test (SYNTHETIC session)');
    expect(text).toContain('(1m 1s)');
    expect(text).toContain('4 events in 0.50 s = 8 events/s');
    expect(text).toMatch(/A\s+2\s+1\s+3/);
    expect(text).toMatch(/all\s+3\s+1\s+4/);
  });

  it('counts events without a sym (account-wide User Data) under their own row', async () => {
    const summary = await summarizeReplay(
      batches([{ kind: 'account', ts: 1, recvTs: 2 }, ev('quote', 'A', 1)]),
      {
        now: () => 0,
      },
    );
    expect(summary.bySymbol.get(NO_SYM)).toEqual(new Map([['account', 1]]));
    expect(formatReplaySummary(summary, 't')).toMatch(/\(no sym\)\s+0\s+1\s+1/);
  });

  it('says so when there was nothing to replay', async () => {
    const summary = await summarizeReplay(batches(), { now: () => 0 });
    expect(formatReplaySummary(summary, 'empty')).toContain('no events');
  });
});

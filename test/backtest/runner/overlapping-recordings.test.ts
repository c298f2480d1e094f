import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RecordedMessage } from '../../../backtest/recording/index.ts';
import { type BacktestRunOptions, runBacktest } from '../../../backtest/runner/index.ts';
import { barOpensSeenBy } from '../../kit/bar-opens-seen.ts';
import { barRunOptions } from '../../kit/bar-run-options.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { writeRecording } from '../../kit/recording-files.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const SYM = 'BINANCE_PERP_BTC_USDT';
const D0 = 1_736_121_600_000;

/** The closed 1m bar opening `i` minutes after D0, received at its close. */
function kline(i: number): RecordedMessage {
  const openTime = D0 + i * 60_000;
  const ts = openTime + 60_000;
  const close = `${100 + (i % 7)}`;
  return {
    recvTs: ts,
    source: 'market-data',
    msg: {
      arg: { channel: 'KLINE', sym: SYM, interval: '1m' },
      data: { openTime, open: close, high: close, low: close, close, volume: '10', closed: true, ts },
    },
  };
}

const minutes = (from: number, to: number): RecordedMessage[] =>
  Array.from({ length: to - from + 1 }, (_, k) => kline(from + k));

async function replay(
  recordings: readonly string[],
  more: Partial<BacktestRunOptions> = {},
): Promise<{ seen: number[]; warnings: readonly string[] }> {
  const seen: number[] = [];
  const result = await runBacktest({
    ...barRunOptions(
      recordings[0] as string,
      [anInstrument(SYM)],
      [{ id: 'c', strategy: barOpensSeenBy(seen, SYM, D0), params: {} }],
    ),
    recordings,
    ...more,
  });
  result.dispose?.();
  return { seen, warnings: result.meta.warnings ?? [] };
}

describe('recordings of one sym that overlap in time', () => {
  const tempDir = tempDirsRemovedAfterEach('keel-overlap-');

  it('replays each shared bar once and warns naming both recordings, the span and the count', async () => {
    const dir = tempDir();
    const a = join(dir, 'a.jsonl');
    const b = join(dir, 'b.jsonl');
    await writeRecording(a, minutes(0, 2));
    await writeRecording(b, minutes(1, 3));
    expect(await replay([a, b])).toEqual({
      seen: [0, 1, 2, 3],
      warnings: [
        `recordings ${b} and ${a} overlap (received 2025-01-06T00:02:00.000Z to 2025-01-06T00:03:00.000Z): 2 events of ${b} repeating ${a}'s were dropped, so each is replayed once`,
      ],
    });
  });

  it('replays a recording listed twice once, and says so', async () => {
    const dir = tempDir();
    const a = join(dir, 'a.jsonl');
    await writeRecording(a, minutes(0, 2));
    const { seen, warnings } = await replay([a, a]);
    expect(seen).toEqual([0, 1, 2]);
    expect(warnings).toEqual([
      `recording ${a} is listed more than once (received 2025-01-06T00:01:00.000Z to 2025-01-06T00:03:00.000Z): 3 events of ${a} repeating ${a}'s were dropped, so each is replayed once`,
    ]);
  });

  it('leaves adjacent recordings that share no event as they were, without a warning', async () => {
    const dir = tempDir();
    const a = join(dir, 'a.jsonl');
    const b = join(dir, 'b.jsonl');
    await writeRecording(a, minutes(0, 1));
    await writeRecording(b, minutes(2, 3));
    expect(await replay([a, b])).toEqual({ seen: [0, 1, 2, 3], warnings: [] });
  });

  it('drops the repeats after the event cache and inside the replay window, cache cold or warm', async () => {
    const dir = tempDir();
    const a = join(dir, 'a.jsonl');
    const b = join(dir, 'b.jsonl');
    await writeRecording(a, minutes(0, 5));
    await writeRecording(b, minutes(3, 9));
    const options = {
      eventCache: { decoderId: 'test-market-v1' },
      window: { from: D0 + 2 * 60_000, to: D0 + 8 * 60_000 },
    };
    for (const pass of ['cold', 'warm']) {
      const { seen, warnings } = await replay([a, b], options);
      expect({ pass, seen, warnings: warnings.length }).toEqual({
        pass,
        seen: [2, 3, 4, 5, 6, 7],
        warnings: 1,
      });
      expect(warnings[0]).toContain(`3 events of ${b} repeating ${a}'s`);
      expect([existsSync(`${a}.events.bin`), existsSync(`${b}.events.bin`)]).toEqual([true, true]);
    }
  });

  it('property: a recording split into overlapping pieces replays the same bars as the whole', async () => {
    const dir = tempDir();
    const whole = join(dir, 'whole.jsonl');
    const count = 30;
    await writeRecording(whole, minutes(0, count - 1));
    const expected = (await replay([whole])).seen;
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.integer({ min: 1, max: count }), fc.nat({ max: 10 })), {
          minLength: 1,
          maxLength: 3,
        }),
        async (cuts) => {
          const paths: string[] = [];
          let start = 0;
          for (const [length, back] of [...cuts, [count, 0] as const]) {
            const end = Math.min(count, start + length);
            const path = join(dir, `piece-${run}-${paths.length}.jsonl`);
            await writeRecording(path, minutes(start, end - 1));
            paths.push(path);
            if (end === count) break;
            start = Math.max(start + 1, end - back);
          }
          run++;
          const { seen, warnings } = await replay(paths);
          expect(seen).toEqual(expected);
          for (const warning of warnings)
            expect(warning).toMatch(/overlap .* were dropped, so each is replayed once$/);
        },
      ),
      { numRuns: 15 },
    );
  });
});

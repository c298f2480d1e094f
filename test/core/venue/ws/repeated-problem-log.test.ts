import { Writable } from 'node:stream';
import fc from 'fast-check';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { RepeatedProblemLog } from '../../../../core/venue/index.ts';
import { fakeTimer } from '../../../kit/venue-fake-timer.ts';

/** A log writing parsed pino records to an array, on a timer the test moves. */
function aLog(intervalMs = 1_000) {
  const records: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) records.push(JSON.parse(line));
      done();
    },
  });
  const timer = fakeTimer(0);
  const log = new RepeatedProblemLog(pino({ level: 'info' }, sink), timer, 'bad frame', intervalMs);
  return { log, records, timer };
}

describe('RepeatedProblemLog', () => {
  it('logs the first of each problem, then summarizes the repeats one interval after the first repeat', async () => {
    const { log, records, timer } = aLog();
    for (const problem of ['a', 'b', 'a', 'a', 'b']) log.report(problem);
    expect(records.map((r) => r.problem)).toEqual(['a', 'b']);
    await timer.advance(999);
    log.report('a');
    expect(records).toHaveLength(2);
    await timer.advance(1);
    log.report('a');
    expect(records[2]).toMatchObject({
      repeats: { a: 3, b: 1 },
      sinceMs: 1_000,
      msg: 'bad frame: 4 more of the problems logged before',
    });
    log.flush();
    expect(records[3]).toMatchObject({ repeats: { a: 1 }, sinceMs: 0 });
    log.flush();
    expect(records).toHaveLength(4);
  });

  it('accounts for every report, in a bounded number of lines, whatever the problems', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 200 }), fc.nat(50)), { maxLength: 400 }),
        async (reports) => {
          const { log, records, timer } = aLog();
          for (const [problem, step] of reports) {
            await timer.advance(step);
            log.report(`p${problem}`);
          }
          log.flush();
          const first = records.filter((r) => r.problem !== undefined).length;
          const repeats = records
            .filter((r) => r.repeats !== undefined)
            .flatMap((r) => Object.values(r.repeats as Record<string, number>))
            .reduce((a, b) => a + b, 0);
          expect(first + repeats).toBe(reports.length);
          // 64 distinct problems logged one by one at most, and one for all the others.
          expect(first).toBeLessThanOrEqual(65);
        },
      ),
    );
  });

  it('logs each kind of problem once whatever entry it names, and summarizes its repeats by kind', () => {
    const { log, records } = aLog();
    for (let i = 0; i < 3; i++) log.report(`Orders channel data[${i}]: fee must be a decimal string`);
    log.report('Trades channel data[4]: price must be a decimal string');
    log.flush();
    expect(records.map((r) => r.problem ?? r.repeats)).toEqual([
      'Orders channel data[0]: fee must be a decimal string',
      'Trades channel data[4]: price must be a decimal string',
      { 'Orders channel data[]: fee must be a decimal string': 2 },
    ]);
  });

  it('writes the summary when its interval ends without another report, and leaves no timer after a flush', async () => {
    const { log, records, timer } = aLog();
    log.report('a');
    log.report('a');
    expect(timer.pending()).toBe(1);
    await timer.advance(1_000);
    expect(records[1]).toMatchObject({ repeats: { a: 1 }, sinceMs: 1_000 });
    log.report('a');
    log.flush();
    expect(timer.pending()).toBe(0);
    await timer.advance(5_000);
    expect(records).toHaveLength(3);
  });
});

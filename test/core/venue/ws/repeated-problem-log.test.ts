import { Writable } from 'node:stream';
import fc from 'fast-check';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { RepeatedProblemLog } from '../../../../core/venue/index.ts';

/** A log writing parsed pino records to an array, on a clock the test moves. */
function aLog(intervalMs = 1_000) {
  const records: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) records.push(JSON.parse(line));
      done();
    },
  });
  const clock = { now: 0 };
  const log = new RepeatedProblemLog(pino({ level: 'info' }, sink), () => clock.now, 'bad frame', intervalMs);
  return { log, records, clock };
}

describe('RepeatedProblemLog', () => {
  it('logs the first of each problem, then summarizes the repeats at most once per interval', () => {
    const { log, records, clock } = aLog();
    for (const problem of ['a', 'b', 'a', 'a', 'b']) log.report(problem);
    expect(records.map((r) => r.problem)).toEqual(['a', 'b']);
    clock.now = 999;
    log.report('a');
    expect(records).toHaveLength(2);
    clock.now = 1_000;
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

  it('accounts for every report, in a bounded number of lines, whatever the problems', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 200 }), fc.nat(50)), { maxLength: 400 }),
        (reports) => {
          const { log, records, clock } = aLog();
          for (const [problem, step] of reports) {
            clock.now += step;
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
});

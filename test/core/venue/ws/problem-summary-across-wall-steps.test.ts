import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { RepeatedProblemLog } from '../../../../core/venue/index.ts';
import { wallSteppingTimer } from '../../../kit/wall-stepping-timer.ts';

describe('RepeatedProblemLog across a wall-clock step', () => {
  it('tells how long the repeats were counted on the monotonic clock, not the hour the wall clock stepped', async () => {
    const records: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) records.push(JSON.parse(line));
        done();
      },
    });
    const timer = wallSteppingTimer();
    const log = new RepeatedProblemLog(pino({ level: 'info' }, sink), timer, 'bad frame', 1_000);
    log.report('a');
    log.report('a');
    timer.stepWall(-3_600_000);
    await timer.advance(1_000);
    expect(records[1]).toMatchObject({ repeats: { a: 1 }, sinceMs: 1_000 });
  });
});

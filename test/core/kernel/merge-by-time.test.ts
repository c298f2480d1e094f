import fc from 'fast-check';
import { from, Subject, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { mergeByTime } from '../../../core/kernel/index.ts';

const sortedTimes = fc
  .array(fc.integer({ min: 0, max: 1_000 }), { maxLength: 30 })
  .map((xs) => [...xs].sort((a, b) => a - b));

describe('mergeByTime', () => {
  it('property: merging sorted feeds gives every event once, sorted by ts, ties by feed order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(sortedTimes, { minLength: 1, maxLength: 4 }), async (feeds) => {
        const tagged = feeds.map((times, f) => times.map((ts, i) => ({ ts, id: `${f}.${i}` })));
        const merged = await new Promise<{ ts: number; id: string }[]>((resolve) =>
          mergeByTime(tagged.map((events) => from(events)))
            .pipe(toArray())
            .subscribe(resolve),
        );
        const expected = tagged
          .flat()
          .sort((a, b) => a.ts - b.ts || Number(a.id.split('.')[0]) - Number(b.id.split('.')[0]));
        expect(merged).toEqual(expected);
      }),
    );
  });

  it('holds an event back until every open feed has shown a later or equal one', () => {
    const a = new Subject<{ ts: number }>();
    const b = new Subject<{ ts: number }>();
    const out: number[] = [];
    mergeByTime([a, b]).subscribe((e) => out.push(e.ts));
    a.next({ ts: 5 });
    a.next({ ts: 7 });
    expect(out).toEqual([]);
    b.next({ ts: 6 });
    expect(out).toEqual([5, 6]);
    b.complete();
    expect(out).toEqual([5, 6, 7]);
  });
});

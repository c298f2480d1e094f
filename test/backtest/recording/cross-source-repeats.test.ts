import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeByRecvTs } from '../../../backtest/recording/index.ts';

interface Item {
  readonly recvTs: number;
  readonly id: string;
}

async function* inBatches<T>(items: readonly T[], size: number): AsyncGenerator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

async function merged(
  sources: readonly (readonly Item[])[],
  batchSize = 3,
): Promise<{ items: Item[]; repeats: [string, number, number][] }> {
  const repeats: [string, number, number][] = [];
  const items: Item[] = [];
  for await (const batch of mergeByRecvTs(
    sources.map((s) => inBatches(s, batchSize)),
    5,
    {
      key: (item) => item.id,
      onRepeat: (item, source, original) => repeats.push([item.id, source, original]),
    },
  ))
    items.push(...batch);
  return { items, repeats };
}

const at = (recvTs: number, id: string): Item => ({ recvTs, id });

describe('merge by receive time, dropping what one source repeats of another', () => {
  it('drops the items of the second source that the first already gave at the same receive time', async () => {
    const a = [at(1, 'x'), at(2, 'y'), at(3, 'z')];
    const b = [at(2, 'y'), at(3, 'z'), at(4, 'w')];
    const { items, repeats } = await merged([a, b]);
    expect(items).toEqual([at(1, 'x'), at(2, 'y'), at(3, 'z'), at(4, 'w')]);
    expect(repeats).toEqual([
      ['y', 1, 0],
      ['z', 1, 0],
    ]);
  });

  it('keeps identical items within one source, and drops a second source only as far as it repeats them', async () => {
    const twice = [at(1, 'q'), at(1, 'q')];
    expect((await merged([twice])).items).toEqual(twice);
    expect((await merged([twice, twice])).items).toEqual(twice);
    expect((await merged([[at(1, 'q')], twice])).items).toEqual(twice);
    expect((await merged([twice, [at(1, 'q')]])).items).toEqual(twice);
  });

  it('drops nothing of items at other receive times or with other keys', async () => {
    const a = [at(1, 'q'), at(2, 'q')];
    const b = [at(3, 'q'), at(3, 'r')];
    const c = [at(2, 'r')];
    const { items, repeats } = await merged([a, b, c]);
    expect(items).toEqual([at(1, 'q'), at(2, 'q'), at(2, 'r'), at(3, 'q'), at(3, 'r')]);
    expect(repeats).toEqual([]);
  });

  it('property: one stream split into overlapping pieces merges back into the whole, each overlap item told once', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 40 }),
        fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 4 }),
        fc.integer({ min: 1, max: 7 }),
        async (steps, cuts, batchSize) => {
          const whole: Item[] = [];
          let ts = 0;
          for (const step of steps) {
            ts += step;
            whole.push(at(ts, `e${whole.length}`));
          }
          // Piece k covers [start_k, end_k): starts rise, each starts at or before the previous one's end.
          const pieces: Item[][] = [];
          let start = 0;
          let overlap = 0;
          for (const [length, back] of cuts) {
            const end = Math.min(whole.length, start + 1 + (length % whole.length));
            if (end >= whole.length) break;
            pieces.push(whole.slice(start, end));
            const next = Math.max(start + 1, end - (back % (end - start + 1)));
            overlap += end - next;
            start = next;
          }
          pieces.push(whole.slice(start));
          const { items, repeats } = await merged(pieces, batchSize);
          expect(items).toEqual(whole);
          expect(repeats.length).toBe(overlap);
        },
      ),
    );
  });
});

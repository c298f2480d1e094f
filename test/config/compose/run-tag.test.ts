import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newRunTag, RUN_TAG_LENGTH } from '../../../config/compose/run-tag.ts';
import { seededRandom } from '../../../core/kernel/index.ts';
import { MAX_CLIENT_ORDER_ID } from '../../../core/venue/index.ts';

const fixed = (value: number) => ({ next: () => value });

describe('run tag of a live or paper session', () => {
  it('is 8 characters of 0-9 and a-z for any start time and random draw, as the kernel accepts', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 8.64e15 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (now, r) => {
          expect(newRunTag(now, fixed(r))).toMatch(/^[0-9a-z]{8}$/);
        },
      ),
    );
  });

  it('differs between sessions started a second apart, and between sessions in the same second', () => {
    const at = Date.UTC(2026, 10, 22, 2, 40);
    expect(newRunTag(at, fixed(0.5))).not.toBe(newRunTag(at + 1000, fixed(0.5)));
    const random = seededRandom(7);
    const sameSecond = new Set(Array.from({ length: 20 }, () => newRunTag(at, random)));
    expect(sameSecond.size).toBeGreaterThan(15);
  });

  it("keeps the longest generated reference within the venue's clientOrderId limit", () => {
    const longestId = 'x'.repeat(24);
    const ref = `${longestId}-${'z'.repeat(RUN_TAG_LENGTH)}-${(36 ** 6 - 1).toString(36)}`;
    expect(ref.length).toBeLessThanOrEqual(MAX_CLIENT_ORDER_ID);
  });
});

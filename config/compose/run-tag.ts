import type { RandomSource } from '../../core/kernel/index.ts';

/** Characters of a run tag: 6 of the start second, 2 random. */
export const RUN_TAG_LENGTH = 8;

const SECOND_DIGITS = 6;
const RANDOM_DIGITS = RUN_TAG_LENGTH - SECOND_DIGITS;
const SECOND_SPAN = 36 ** SECOND_DIGITS;
const RANDOM_SPAN = 36 ** RANDOM_DIGITS;

/**
 * A fresh run tag for a live or paper session: the kernel puts it into every generated reference
 * (`{strategy id}-{tag}-{counter}`, e.g. `mm-tk3x9a4f-1`), so a restarted session never reuses a
 * clientOrderId of an earlier one (the venue refuses a duplicate with 406010, and an overdue
 * order's look-up must not find the earlier run's). Keel's choice: 8 lower-case base-36
 * characters, the session's start second (6 characters, repeating only after 69 years) and 2
 * random ones, so two sessions started in the same second differ too. With the longest strategy
 * id (24 characters) a generated reference stays within the venue's 40-character clientOrderId
 * up to counter `zzzzzz` (2 billion orders). Backtests use no tag, so their results stay the same.
 * @param nowMs - the wall clock, epoch ms
 * @param random - where the random characters come from
 * @returns the tag, `RUN_TAG_LENGTH` characters of 0-9 and a-z
 */
export function newRunTag(nowMs: number, random: RandomSource): string {
  const second = Math.floor(nowMs / 1000) % SECOND_SPAN;
  const salt = Math.floor(random.next() * RANDOM_SPAN) % RANDOM_SPAN;
  return second.toString(36).padStart(SECOND_DIGITS, '0') + salt.toString(36).padStart(RANDOM_DIGITS, '0');
}

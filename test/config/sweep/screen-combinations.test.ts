import { describe, expect, it } from 'vitest';
import { screenCombinations } from '../../../config/sweep/screen-combinations.ts';

const EXAMPLE = 'config/examples/sma-cross-backtest.yaml';
const FAST = 'strategies.0.params.fast';
const SLOW = 'strategies.0.params.slow';

describe('screening a sweep grid before it runs', () => {
  it("sets aside a combination only the strategy's own rule refuses (fast must be shorter than slow), keeping grid order", async () => {
    const grid = [
      [`${FAST}=5`, `${SLOW}=8`],
      [`${FAST}=5`, `${SLOW}=20`],
      [`${FAST}=10`, `${SLOW}=8`],
      [`${FAST}=10`, `${SLOW}=20`],
    ];
    const screened = await screenCombinations(EXAMPLE, [], grid);
    expect(screened).toEqual({
      ok: true,
      runnable: [grid[0], grid[1], grid[3]],
      refused: [{ combination: grid[2], by: 'params', reasons: ['fast must be shorter than slow'] }],
    });
  });

  it('stops at a mistake in a value, a key or the config, naming it where it was set', async () => {
    const typo = await screenCombinations(EXAMPLE, [], [[`${FAST}=5`], ['strategies.0.params.fsat=5']]);
    expect(typo.ok).toBe(false);
    expect(!typo.ok && typo.problems.map((p) => `${p.subject} ${p.message} (${p.where})`)).toEqual([
      'params.fsat is not a known key (did you mean fast?) (--set strategies.0.params.fsat=5)',
    ]);
    const badValue = await screenCombinations(EXAMPLE, [], [[`${FAST}=abc`]]);
    expect(!badValue.ok && badValue.problems[0]?.message).toBe('must be a number, not the string "abc"');
    // A value outside its range is a mistake too, though slow=1 would also break fast < slow.
    const outOfRange = await screenCombinations(EXAMPLE, [], [[`${SLOW}=1`]]);
    expect(outOfRange.ok).toBe(false);
    const config = await screenCombinations(EXAMPLE, [], [['backtest.latency.fixedMs=-1']]);
    expect(!config.ok && config.problems[0]?.where).toBe('--set backtest.latency.fixedMs=-1');
  });

  it("names a later combination's config mistake before an earlier one's params mistake", async () => {
    const screened = await screenCombinations(
      EXAMPLE,
      [],
      [
        [`${SLOW}=1`, 'backtest.latency.fixedMs=5'],
        [`${SLOW}=20`, 'backtest.latency.fixedMs=-1'],
      ],
    );
    expect(!screened.ok && screened.problems.map((p) => p.where)).toEqual([
      '--set backtest.latency.fixedMs=-1',
    ]);
  });

  it("applies the sweep's own --set before each combination", async () => {
    const screened = await screenCombinations(EXAMPLE, [`${SLOW}=4`], [[`${FAST}=3`], [`${FAST}=4`]]);
    expect(screened.ok && screened.refused.map((r) => r.combination)).toEqual([[`${FAST}=4`]]);
  });

  it('sets aside a combination whose replay window ends before it starts, keeping grid order with the strategy refusals', async () => {
    const grid = [
      ['backtest.to=2025-01-06T14:40:00Z', `${FAST}=3`],
      ['backtest.to=2025-01-06T14:40:00Z', `${FAST}=9`],
      ['backtest.to=2025-01-06T14:35:00Z', `${FAST}=3`],
      ['backtest.to=2025-01-06T14:50:00Z', `${FAST}=3`],
    ];
    const screened = await screenCombinations(
      EXAMPLE,
      [{ set: 'backtest.from=2025-01-06T14:35:00Z', shownAs: '--from 2025-01-06T14:35:00Z' }],
      grid,
    );
    expect(screened).toEqual({
      ok: true,
      runnable: [grid[0], grid[3]],
      refused: [
        { combination: grid[1], by: 'params', reasons: ['fast must be shorter than slow'] },
        { combination: grid[2], by: 'window', reasons: ['backtest.to must be later than from'] },
      ],
    });
  });
});

describe('checking each grid value on its own first', () => {
  it('names a value wrong on its own (slow=1, below its minimum) at its own --grid entry, not the rule across params it also breaks', async () => {
    const grid = [3, 5].flatMap((fast) => [1, 13].map((slow) => [`${FAST}=${fast}`, `${SLOW}=${slow}`]));
    const screened = await screenCombinations(EXAMPLE, [], grid);
    expect(screened.ok).toBe(false);
    expect(!screened.ok && screened.problems.map((p) => `${p.subject} ${p.message} (${p.where})`)).toEqual([
      `params.slow must be at least 2 (--set ${SLOW}=1)`,
    ]);
  });

  it('stops a large grid with a wrong value in a load per value, not one per combination', async () => {
    // 200 x 200 = 40 000 combinations; checking each took about 20 s before the first problem was named.
    const slows = [1, ...Array.from({ length: 199 }, (_, k) => 13 + k)];
    const grid = Array.from({ length: 200 }, (_, k) => k + 1).flatMap((fast) =>
      slows.map((slow) => [`${FAST}=${fast}`, `${SLOW}=${slow}`]),
    );
    const started = Date.now();
    const screened = await screenCombinations(EXAMPLE, [], grid);
    expect(!screened.ok && screened.problems.map((p) => p.where)).toEqual([`--set ${SLOW}=1`]);
    expect(Date.now() - started).toBeLessThan(8_000);
  }, 60_000);
});

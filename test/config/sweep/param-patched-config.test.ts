import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../config/loader/index.ts';
import { screenCombinations } from '../../../config/sweep/screen-combinations.ts';

/** The loader, counting its loads. */
function countingLoader(): { readonly load: typeof loadConfig; readonly count: () => number } {
  let loads = 0;
  return {
    load: (file, options) => {
      loads++;
      return loadConfig(file, options);
    },
    count: () => loads,
  };
}

const EXAMPLE = 'config/examples/sma-cross-backtest.yaml';
const FAST = 'strategies.0.params.fast';
const SLOW = 'strategies.0.params.slow';

describe('screening a grid of strategy params', () => {
  it('checks each combination against the strategy without loading the config again for it', async () => {
    // 20 x 20, all refused by fast < slow: the config is loaded once, then once per value.
    const grid = Array.from({ length: 20 }, (_, f) => 101 + f).flatMap((fast) =>
      Array.from({ length: 20 }, (_, s) => 2 + s).map((slow) => [`${FAST}=${fast}`, `${SLOW}=${slow}`]),
    );
    const loader = countingLoader();
    const screened = await screenCombinations(EXAMPLE, [], grid, loader.load);
    expect(screened.ok && screened.refused.length).toBe(400);
    expect(screened.ok && screened.refused[0]?.reasons).toEqual(['fast must be shorter than slow']);
    expect(loader.count()).toBeLessThanOrEqual(1 + 40);
  });

  it('still loads in full a combination that sets a config field, or a param value that is not a number or boolean', async () => {
    const grid = [
      [`${FAST}=3`, 'backtest.latency.fixedMs=5'],
      [`${FAST}=3`, 'strategies.0.params.interval=1m'],
    ];
    const loader = countingLoader();
    const screened = await screenCombinations(EXAMPLE, [], grid, loader.load);
    expect(screened.ok && screened.runnable).toEqual(grid);
    // Once for the base, once per value (3, 5, 1m), once per combination.
    expect(loader.count()).toBe(1 + 3 + 2);
  });
});

import { describe, expect, it } from 'vitest';
import { processRuns } from '../../../../backtest/report/index.ts';

describe('processRuns', () => {
  it('knows this process runs and a pid past any real one does not', () => {
    expect(processRuns(process.pid)).toBe(true);
    expect(processRuns(2 ** 30)).toBe(false);
  });
});

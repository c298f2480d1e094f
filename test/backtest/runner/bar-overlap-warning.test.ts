import { describe, expect, it } from 'vitest';
import { barOverlapWarnings } from '../../../backtest/runner/bar-overlap-warning.ts';

describe('bar overlap warning', () => {
  it('counts the bars passed over in words that agree with the count', () => {
    const [one] = barOverlapWarnings([{ sym: 'S', matched: ['1m'], passedOver: [['5m', 1]] }]);
    expect(one).toContain(
      'orders were matched against the 1m bars, and 1 5m bar that finer bars already covered was passed over',
    );
    const [several] = barOverlapWarnings([
      {
        sym: 'S',
        matched: ['1m'],
        passedOver: [
          ['5m', 3],
          ['1h', 1],
        ],
      },
    ]);
    expect(several).toContain('and 3 5m bars, 1 1h bar that finer bars already covered were passed over');
  });
});

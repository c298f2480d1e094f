import { describe, expect, it } from 'vitest';
import { groupSweepTexts } from '../../../../config/cli/commands/sweep-warning-groups.ts';

/** The funding warning as a row of big.yaml's sweep gave it, `times` funding times. */
function funding(times: number, first: string): string {
  return `BINANCE_PERP_BTC_USDT was held across ${times} funding times (the first ${first}, the last 2024-05-04T16:00:00.000Z) of the usual 8-hour funding schedule (00:00, 08:00, 16:00 UTC), but the recordings gave no funding rate of it`;
}

describe('groupSweepTexts', () => {
  it('says once, with ranges, warnings that differ only in their numbers and times', () => {
    const rows = [
      [funding(38, '2024-01-04T16:00:00.000Z')],
      [funding(46, '2024-01-04T16:00:00.000Z')],
      [funding(52, '2024-01-05T00:00:00.000Z'), 'another warning'],
      [funding(38, '2024-01-04T16:00:00.000Z')],
    ];
    expect(groupSweepTexts(rows)).toEqual([
      {
        text: 'BINANCE_PERP_BTC_USDT was held across 38–52 funding times (the first 2024-01-04T16:00:00.000Z–2024-01-05T00:00:00.000Z, the last 2024-05-04T16:00:00.000Z) of the usual 8-hour funding schedule (00:00, 08:00, 16:00 UTC), but the recordings gave no funding rate of it',
        rows: 4,
      },
      { text: 'another warning', rows: 1 },
    ]);
  });

  it('keeps a warning every row gives alike as it is, and counts a row once', () => {
    expect(groupSweepTexts([['a 1 b', 'a 1 b'], ['a 1 b']])).toEqual([{ text: 'a 1 b', rows: 2 }]);
  });

  it('orders numbers by value, not text', () => {
    expect(groupSweepTexts([['held 9 times'], ['held 10 times']])).toEqual([
      { text: 'held 9–10 times', rows: 2 },
    ]);
  });
});

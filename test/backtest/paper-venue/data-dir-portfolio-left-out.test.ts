import { afterEach, describe, expect, it } from 'vitest';
import type { PaperVenue } from '../../../backtest/paper-venue/index.ts';
import { aMainAndSubVenue, aPaperVenue, withFirstQuotes } from '../../kit/paper-venue-builders.ts';
import { signedRest } from '../../kit/paper-venue-client.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

let venue: PaperVenue | undefined;
const aDataDir = tempDirsRemovedAfterEach('keel-left-out-');
afterEach(async () => {
  await venue?.close();
  venue = undefined;
});

const borrow = (amount: string) => ({ exchange: 'BINANCE', coin: 'USDT', amount });

describe('a data dir restarted without one of its portfolios', () => {
  it('is refused naming the portfolio left out when the shared loan pool makes the others replay otherwise', async () => {
    const dataDir = aDataDir();
    // The loan pool (20,000 USDT) is shared: the sub takes 15,000, so the main's 10,000 is refused.
    const first = await aMainAndSubVenue({ usdt: 100_000 }, { dataDir });
    venue = first.venue;
    await withFirstQuotes(first.venue);
    const sub = await signedRest(
      first.sub,
      'POST',
      '/api/v1/trading/marginLoan/loan/borrow',
      borrow('15000'),
    );
    const main = await signedRest(
      first.main,
      'POST',
      '/api/v1/trading/marginLoan/loan/borrow',
      borrow('10000'),
    );
    expect([(sub.body as { code: number }).code, (main.body as { code: number }).code]).toEqual([0, 406018]);
    await first.venue.close();
    venue = undefined;

    const refusal = await aPaperVenue({ dataDir }).then(
      (restarted) => {
        venue = restarted;
        return 'started';
      },
      (error: Error) => error.message,
    );
    expect(refusal).toContain('this venue runs without portfolio');
    expect(refusal).toContain('a loan pool or quota shared with it');
  });
});

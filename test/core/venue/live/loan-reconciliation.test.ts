import { describe, expect, it } from 'vitest';
import { D, type Loan } from '../../../../core/model/index.ts';
import { approved } from '../../../kit/approved-intents.ts';
import { eventually, type LivePaperRig, livePaperRigs } from '../../../kit/live-paper-rig.ts';
import { aPaperVenue, withFirstQuotes } from '../../../kit/paper-venue-builders.ts';

const rigOn = livePaperRigs();

const loansOf = (rig: LivePaperRig): Loan[] => rig.events.flatMap((e) => (e.kind === 'loan' ? [e.loan] : []));

describe('live execution client: margin loans in reconciliation', () => {
  it('tells a session started after a borrow the loan it owes, from its first reconciliation', async () => {
    const v = await withFirstQuotes(await aPaperVenue());
    const first = await rigOn(v);
    first.live.submit(
      approved({ kind: 'borrow', ref: 'b-1', exchange: 'BINANCE', coin: 'USDT', amount: D('250') }),
    );
    await eventually(() => loansOf(first).some((l) => l.principal.eq(250)), 'the borrowed loan');

    // The venue allows one private WebSocket login per second and portfolio.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const restarted = await rigOn(v);
    const loans = loansOf(restarted);
    expect(loans.map((l) => [l.exchange, l.coin, l.principal.toFixed()])).toEqual([
      ['BINANCE', 'USDT', '250'],
    ]);
    expect(loans[0]?.annualRate.gt(0)).toBe(true);
  });
});

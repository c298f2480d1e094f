import { afterEach, describe, expect, it } from 'vitest';
import type { Loan } from '../../../../core/model/index.ts';
import { type LiveClientOnFakeVenue, liveClientOnFakeVenue } from '../../../kit/live-client-on-fake-venue.ts';
import type { ReceivedRequest } from '../../../kit/venue-http-server.ts';
import { waitFor } from '../../../kit/venue-wait.ts';
import { ok, WIRE_LIQ_EVENT } from '../../../kit/venue-wire-samples.ts';

const INFO = '/api/v1/trading/marginLoan/loan/info';
let rig: LiveClientOnFakeVenue | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

/** Answers the loan info with these loans (principal, coin on BINANCE). */
function listing(loans: readonly [string, string][]) {
  return (request: ReceivedRequest) =>
    request.path === INFO
      ? {
          body: ok({
            ltv: '0',
            loans: loans.map(([principal, coin]) => ({
              exchange: 'BINANCE',
              coin,
              principal,
              interest: '0',
            })),
          }),
        }
      : undefined;
}

const loansReported = (r: LiveClientOnFakeVenue): Loan[] =>
  r.events.flatMap((e) => (e.kind === 'loan' ? [e.loan] : []));
const shown = (loans: readonly Loan[]) => loans.map((l) => `${l.coin} ${l.principal.toFixed()}`);

describe('the live client reads the venue’s loans after a liquidation', () => {
  it('reports a loan the liquidation repaid as paid off (principal 0), and one it left as the venue lists it', async () => {
    rig = await liveClientOnFakeVenue();
    rig.special = listing([
      ['100', 'USDT'],
      ['2', 'ETH'],
    ]);
    expect(await rig.live.readLoans()).toBe(true);
    expect(shown(loansReported(rig))).toEqual(['USDT 100', 'ETH 2']);
    // The venue's liquidation repaid the USDT loan: only a read of the loans shows it.
    rig.special = listing([['2', 'ETH']]);
    const before = loansReported(rig).length;
    rig.ws.push({ channel: 'LiquidationEvent', data: WIRE_LIQ_EVENT });
    await waitFor(
      () => loansReported(rig as LiveClientOnFakeVenue).length > before,
      'a loan read after the push',
    );
    expect(shown(loansReported(rig).slice(before))).toEqual(['ETH 2', 'USDT 0']);
  });

  it('keeps the loans it holds when the read fails, and says so', async () => {
    rig = await liveClientOnFakeVenue();
    rig.special = listing([['100', 'USDT']]);
    await rig.live.readLoans();
    rig.special = (request) =>
      request.path === INFO ? { body: { code: 2003, message: 'no permission' } } : undefined;
    const before = rig.events.length;
    expect(await rig.live.readLoans()).toBe(false);
    expect(rig.events.slice(before).filter((e) => e.kind === 'loan')).toEqual([]);
  });

  it('reads once more after a read already running, not once per request', async () => {
    rig = await liveClientOnFakeVenue();
    rig.special = listing([['100', 'USDT']]);
    const before = rig.calls(INFO).length; // the first reconciliation's
    const reads = [rig.live.readLoans(), rig.live.readLoans(), rig.live.readLoans()];
    expect(await Promise.all(reads)).toEqual([true, true, true]);
    expect(rig.calls(INFO).length - before).toBe(2);
  });
});

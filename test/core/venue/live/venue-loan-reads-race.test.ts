import { afterEach, describe, expect, it } from 'vitest';
import { D, type Intent, type Loan } from '../../../../core/model/index.ts';
import type { ApprovedIntent } from '../../../../core/risk/index.ts';
import { type LiveClientOnFakeVenue, liveClientOnFakeVenue } from '../../../kit/live-client-on-fake-venue.ts';
import { waitFor } from '../../../kit/venue-wait.ts';
import { ok, page, WIRE_LIQ_EVENT } from '../../../kit/venue-wire-samples.ts';

const INFO = '/api/v1/trading/marginLoan/loan/info';
const ORDERS = '/api/v1/trading/marginLoan/loan/orders';
const approved = (intent: Intent) => ({ strategyId: 's1', intent }) as ApprovedIntent;
const info = (loans: readonly [string, string][]) =>
  ok({
    ltv: '0',
    loans: loans.map(([principal, coin]) => ({ exchange: 'BINANCE', coin, principal, interest: '0' })),
  });

const loanOrder = (type: string, clientId: string) => ({
  loanOrderId: `lo-${clientId}`,
  type,
  coin: 'USDT',
  amount: '100',
  clientId,
});
const usdt = (r: LiveClientOnFakeVenue): string[] =>
  r.events.flatMap((e) => (e.kind === 'loan' && e.loan.coin === 'USDT' ? [e.loan.principal.toFixed()] : []));
/** A promise the test settles when it lets a held reply go. */
function hold(): { held: Promise<void>; release: () => void } {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { held, release };
}

let rig: LiveClientOnFakeVenue | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe('the loan read after a liquidation vs a borrow booked while it travels', () => {
  it('does not report the new loan paid off with a listing served before the borrow', async () => {
    rig = await liveClientOnFakeVenue();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let borrowed = false;
    let heldOne = false;
    rig.special = (request) => {
      if (request.path === INFO) {
        // The read after the liquidation node is served before the borrow: no loan. Its reply is
        // slow to arrive; the borrow's own read, served after it, lists the loan.
        if (!heldOne && !borrowed) {
          heldOne = true;
          return { body: info([]), heldUntil: held };
        }
        return { body: info(borrowed ? [['100', 'USDT']] : []) };
      }
      if (request.path.endsWith('/loan/borrow')) {
        borrowed = true;
        return { body: ok({ loanOrderId: 'lo-1', type: 'BORROW', coin: 'USDT', amount: '100' }) };
      }
      return undefined;
    };
    const r = rig;
    const usdt = (): Loan[] =>
      r.events.flatMap((e) => (e.kind === 'loan' && e.loan.coin === 'USDT' ? [e.loan] : []));
    r.ws.push({ channel: 'LiquidationEvent', data: WIRE_LIQ_EVENT });
    await waitFor(() => heldOne, 'the read after the liquidation node is under way');
    r.live.submit(
      approved({ kind: 'borrow', ref: 'b-1', exchange: 'BINANCE', coin: 'USDT', amount: D('100') }),
    );
    await waitFor(() => usdt().some((l) => l.principal.eq(100)), "the borrow's loan read");
    const before = r.events.length;
    release();
    await waitFor(() => r.calls(INFO).length >= 3 && r.events.length >= before, 'the late read');
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The venue holds 100 USDT: the last word Keel takes on the loan must say so.
    expect(usdt().map((l) => l.principal.toFixed())).toEqual(['100']);
  });

  it('does not report a loan a lost borrow reply was looked up to, paid off, with a listing served before it', async () => {
    rig = await liveClientOnFakeVenue();
    const { held, release } = hold();
    let borrowed = false;
    let heldOne = false;
    rig.special = (request) => {
      if (request.path === INFO) {
        if (!heldOne && !borrowed) {
          heldOne = true;
          return { body: info([]), heldUntil: held };
        }
        return { body: info(borrowed ? [['100', 'USDT']] : []) };
      }
      if (request.path.endsWith('/loan/borrow')) {
        borrowed = true; // the venue lends; its reply is lost
        return { body: null, reset: true };
      }
      if (request.path === ORDERS) return { body: ok(page(borrowed ? [loanOrder('BORROW', 'b-1')] : [])) };
      return undefined;
    };
    const r = rig;
    r.ws.push({ channel: 'LiquidationEvent', data: WIRE_LIQ_EVENT });
    await waitFor(() => heldOne, 'the read after the liquidation node is under way');
    r.live.submit(
      approved({ kind: 'borrow', ref: 'b-1', exchange: 'BINANCE', coin: 'USDT', amount: D('100') }),
    );
    await waitFor(() => usdt(r).includes('100'), "the lookup's loan read");
    release();
    await waitFor(() => r.calls(INFO).length >= 3, 'the late read');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(usdt(r)).toEqual(['100']);
  });

  it("does not report a repaid loan still owed with the borrow's read arriving after the repay's", async () => {
    rig = await liveClientOnFakeVenue();
    const { held, release } = hold();
    let state: 'none' | 'lent' | 'repaid' = 'none';
    let heldOne = false;
    rig.special = (request) => {
      if (request.path === INFO) {
        // The borrow's read, served while the loan was out, is slow to arrive.
        if (state === 'lent' && !heldOne) {
          heldOne = true;
          return { body: info([['100', 'USDT']]), heldUntil: held };
        }
        return { body: info(state === 'lent' ? [['100', 'USDT']] : []) };
      }
      if (request.path.endsWith('/loan/borrow')) {
        state = 'lent';
        return { body: ok(loanOrder('BORROW', 'b-1')) };
      }
      if (request.path.endsWith('/loan/repay')) {
        state = 'repaid';
        return { body: ok(loanOrder('REPAY', 'r-1')) };
      }
      return undefined;
    };
    const r = rig;
    r.live.submit(
      approved({ kind: 'borrow', ref: 'b-1', exchange: 'BINANCE', coin: 'USDT', amount: D('100') }),
    );
    await waitFor(() => heldOne, "the borrow's read is under way");
    r.live.submit(
      approved({ kind: 'repay', ref: 'r-1', exchange: 'BINANCE', coin: 'USDT', amount: D('100') }),
    );
    await waitFor(() => usdt(r).includes('0'), "the repay's loan read");
    release();
    await waitFor(() => r.calls(INFO).length >= 3, 'the late read');
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The venue holds no USDT loan: the last word Keel takes on the loan must say so.
    expect(usdt(r)).toEqual(['0']);
  });
});

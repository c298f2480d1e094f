import { type Dec, parseDecimal, type UserEvent, ZERO } from '../../model/index.ts';
import type { VenueRestClient } from '../rest/rest-client.ts';
import type { MarginLoanConfigWire, MarginLoanInfoWire } from '../wire/loan.ts';

/** The loan a borrow or repay moved: its exchange account and coin. */
export interface MovedLoan {
  readonly exchange: string;
  readonly coin: string;
}

/**
 * The loans of a margin loan info reply as `loan` events. The reply lists outstanding loans
 * only, so the loan a repay paid off is missing from it: given as `moved`, it is reported with
 * principal and interest 0, as the simulated venue publishes a loan it closes, rather than left at
 * its last principal.
 * @param info - `GET .../marginLoan/loan/info` reply
 * @param ts - event time, epoch ms
 * @param moved - the loan the command behind the read borrowed or repaid
 * @param config - `GET .../marginLoan/loan/config` reply: each loan's annual rate (the info reply
 *   carries none); 0 for a coin it does not list
 * @returns one event per loan balance, and one for the moved loan when the reply omits it
 */
function loanEvents(
  info: MarginLoanInfoWire,
  ts: number,
  moved: MovedLoan,
  config: readonly MarginLoanConfigWire[],
): UserEvent[] {
  const rates = new Map(config.map((entry) => [entry.coin, entry.annualInterestRate]));
  const rateOf = (coin: string): Dec => {
    const rate = rates.get(coin);
    return rate === undefined ? ZERO : parseDecimal(rate, 'annualInterestRate');
  };
  const balances = info.loans ?? [];
  const events: UserEvent[] = balances.map((balance) =>
    loanEvent(
      balance.exchange,
      balance.coin,
      parseDecimal(balance.principal, 'principal'),
      balance.interest === undefined ? ZERO : parseDecimal(balance.interest, 'interest'),
      rateOf(balance.coin),
      ts,
    ),
  );
  if (!balances.some((b) => b.exchange === moved.exchange && b.coin === moved.coin))
    events.push(loanEvent(moved.exchange, moved.coin, ZERO, ZERO, rateOf(moved.coin), ts));
  return events;
}

/**
 * Reads the loans (loan info, and the loan config for their rates) after a borrow or repay, or
 * to learn its fate, as `loan` events. The rates are secondary: when only the config cannot be
 * read, the loans are reported with rate 0 rather than not at all.
 * @param rest - the REST client
 * @param ts - event time, epoch ms
 * @param moved - the loan the command borrowed or repaid
 * @returns one event per loan balance, and one for the moved loan when the info omits it
 * @throws whatever the REST client throws for the loan info
 */
export async function readLoanEvents(
  rest: VenueRestClient,
  ts: number,
  moved: MovedLoan,
): Promise<UserEvent[]> {
  const [info, config] = await Promise.allSettled([rest.getMarginLoanInfo(), rest.getMarginLoanConfig()]);
  if (info.status === 'rejected') throw info.reason;
  return loanEvents(info.value, ts, moved, config.status === 'fulfilled' ? config.value : []);
}

function loanEvent(
  exchange: string,
  coin: string,
  principal: Dec,
  interest: Dec,
  annualRate: Dec,
  ts: number,
): UserEvent {
  return {
    kind: 'loan',
    ts,
    recvTs: ts,
    loan: { exchange, coin, principal, interest, annualRate, updateAt: ts },
  };
}

import { type Dec, type Loan, parseDecimal, type UserEvent, ZERO } from '../../model/index.ts';
import type { VenueRestClient } from '../rest/rest-client.ts';
import type { MarginLoanConfigWire, MarginLoanInfoWire } from '../wire/loan.ts';

/** The loan a borrow or repay moved: its exchange account and coin. */
export interface MovedLoan {
  readonly exchange: string;
  readonly coin: string;
}

/** The outstanding loans the venue lists, and each coin's annual rate from the loan config. */
interface LoanRead {
  readonly loans: Loan[];
  readonly rateOf: (coin: string) => Dec;
}

/**
 * The loans of a margin loan info reply, with their rates.
 * @param info - `GET .../marginLoan/loan/info` reply (outstanding loans only)
 * @param ts - the read's time, epoch ms
 * @param config - `GET .../marginLoan/loan/config` reply: each loan's annual rate (the info reply
 *   carries none); 0 for a coin it does not list
 */
function loansOf(info: MarginLoanInfoWire, ts: number, config: readonly MarginLoanConfigWire[]): LoanRead {
  const rates = new Map(config.map((entry) => [entry.coin, entry.annualInterestRate]));
  const rateOf = (coin: string): Dec => {
    const rate = rates.get(coin);
    return rate === undefined ? ZERO : parseDecimal(rate, 'annualInterestRate');
  };
  const loans = (info.loans ?? []).map((balance) => ({
    exchange: balance.exchange,
    coin: balance.coin,
    principal: parseDecimal(balance.principal, 'principal'),
    interest: balance.interest === undefined ? ZERO : parseDecimal(balance.interest, 'interest'),
    annualRate: rateOf(balance.coin),
    updateAt: ts,
  }));
  return { loans, rateOf };
}

/**
 * Reads the loan info, and the loan config for the rates. The rates are secondary: when only the
 * config cannot be read, the loans are given with rate 0 rather than not at all.
 * @throws whatever the REST client throws for the loan info
 */
async function readLoanInfo(rest: VenueRestClient, ts: number): Promise<LoanRead> {
  const [info, config] = await Promise.allSettled([rest.getMarginLoanInfo(), rest.getMarginLoanConfig()]);
  if (info.status === 'rejected') throw info.reason;
  return loansOf(info.value, ts, config.status === 'fulfilled' ? config.value : []);
}

/**
 * The venue's outstanding margin loans now (principal, interest, the config's annual rate), as a
 * snapshot for reconciliation lists them.
 * @param rest - the REST client
 * @param ts - the read's time, epoch ms
 * @returns one loan per balance the venue lists
 * @throws whatever the REST client throws for the loan info
 */
export async function readLoans(rest: VenueRestClient, ts: number): Promise<Loan[]> {
  return (await readLoanInfo(rest, ts)).loans;
}

/**
 * Reads the loans after a borrow or repay, or to learn its fate, as `loan` events. The reply lists
 * outstanding loans only, so the loan a repay paid off is missing from it: it is reported with
 * principal and interest 0, as the simulated venue publishes a loan it closes, rather than left at
 * its last principal.
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
  const { loans, rateOf } = await readLoanInfo(rest, ts);
  if (!loans.some((loan) => loan.exchange === moved.exchange && loan.coin === moved.coin))
    loans.push({
      exchange: moved.exchange,
      coin: moved.coin,
      principal: ZERO,
      interest: ZERO,
      annualRate: rateOf(moved.coin),
      updateAt: ts,
    });
  return loans.map((loan) => ({ kind: 'loan', ts, recvTs: ts, loan }));
}

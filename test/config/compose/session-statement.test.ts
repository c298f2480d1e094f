import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { listFeed } from '../../../backtest/paper-venue/index.ts';
import {
  restStatementPages,
  SessionStatement,
  type StatementPages,
  type StatementWindow,
} from '../../../config/compose/session-statement.ts';
import { D, ZERO } from '../../../core/model/index.ts';
import {
  hmacSigner,
  type MarginLoanStatementWire,
  type StatementWire,
  VenueRestClient,
} from '../../../core/venue/index.ts';
import { aPaperVenue, closedAfterEachTest, T0 } from '../../kit/paper-venue-builders.ts';
import { bboPush, signedRest } from '../../kit/paper-venue-client.ts';
import { fakeTimer } from '../../kit/venue-fake-timer.ts';

const logger = pino({ level: 'silent' });
const T = Date.UTC(2026, 0, 5);
const MIN = 60_000;
const DAY = 86_400_000;

/** Statements served from lists the test changes, recording each window asked for; `fail` makes the next calls throw. */
function scriptedPages() {
  const state = {
    trading: [] as StatementWire[],
    loans: [] as MarginLoanStatementWire[],
    windows: [] as StatementWindow[],
    fail: undefined as string | undefined,
    hang: false,
  };
  async function* serve<T>(rows: readonly T[], window: StatementWindow): AsyncGenerator<T> {
    state.windows.push(window);
    if (state.hang) await new Promise(() => {});
    if (state.fail !== undefined) throw new Error(state.fail);
    yield* rows;
  }
  const pages: StatementPages = {
    trading: (window) => serve(state.trading, window),
    loans: (window) => serve(state.loans, window),
  };
  return { state, pages };
}

const funding = (id: string | undefined, ts: number, amount: string): StatementWire => ({
  ...(id === undefined ? {} : { id }),
  type: 'FUNDING_FEE',
  coin: 'USDT',
  sym: 'BINANCE_PERP_BTC_USDT',
  amount,
  createAt: ts,
});

describe('a session’s statement', () => {
  it('asks for the session’s span, then from shortly before where the last fetch ended', async () => {
    const { state, pages } = scriptedPages();
    const statement = new SessionStatement({ pages, begin: T, logger });
    await statement.refresh(T + 60 * MIN);
    await statement.refresh(T + 120 * MIN);
    expect(state.windows).toEqual([
      { begin: T, end: T + 60 * MIN },
      { begin: T, end: T + 60 * MIN },
      { begin: T + 50 * MIN, end: T + 120 * MIN },
      { begin: T + 50 * MIN, end: T + 120 * MIN },
    ]);
  });

  it('asks for the span on the venue’s clock when the session’s is not the venue’s, the begin placed with what is known at the fetch', async () => {
    const { state, pages } = scriptedPages();
    // The venue's clock runs 10 minutes behind the session's; learned only after the session began.
    let behind = 0;
    const statement = new SessionStatement({ pages, begin: T, toVenueTime: (ts) => ts - behind, logger });
    behind = 10 * MIN;
    await statement.refresh(T + 60 * MIN);
    await statement.refresh(T + 120 * MIN);
    expect(state.windows).toEqual([
      { begin: T - 10 * MIN, end: T + 50 * MIN },
      { begin: T - 10 * MIN, end: T + 50 * MIN },
      { begin: T + 40 * MIN, end: T + 110 * MIN },
      { begin: T + 40 * MIN, end: T + 110 * MIN },
    ]);
  });

  it('sends no begin or end the session does not know (a paper venue’s clock before its first event)', async () => {
    const { state, pages } = scriptedPages();
    await new SessionStatement({ pages, begin: 0, logger }).refresh(0);
    expect(state.windows).toEqual([{}, {}]);
  });

  it('counts an entry listed by two fetches once, by its id, and one without id by what it is', async () => {
    const { state, pages } = scriptedPages();
    const statement = new SessionStatement({ pages, begin: T, logger });
    state.trading = [funding('a', T + MIN, '-1'), funding(undefined, T + 2 * MIN, '-2')];
    await statement.refresh(T + 5 * MIN);
    state.trading = [...state.trading, funding('b', T + 6 * MIN, '-1')];
    await statement.refresh(T + 10 * MIN);
    expect(statement.cashFlows()?.map((f) => `${f.ts - T} ${f.amount.toFixed()}`)).toEqual([
      `${MIN} -1`,
      `${2 * MIN} -2`,
      `${6 * MIN} -1`,
    ]);
  });

  it('turns funding, interest, borrows and repays into cash flows, keeps liquidation fees apart and warns when they differ from the pushes', async () => {
    const { state, pages } = scriptedPages();
    const statement = new SessionStatement({ pages, begin: T, logger });
    state.trading = [
      funding('f', T + MIN, '0.5'),
      { id: 'i', type: 'DEDUCT_INTEREST', coin: 'USDT', deltaAmount: '-0.01', createAt: T + 2 * MIN },
      { id: 'l', type: 'LIQUIDATION_FEE', coin: 'USDT', amount: '-12.5', createAt: T + 3 * MIN },
      { id: 'x', type: 'BORROW', coin: 'USDT', amount: '100', createAt: T + 3 * MIN },
    ];
    state.loans = [
      { id: 'B', type: 'BORROW', coin: 'USDT', amount: '100', createAt: T },
      { id: 'R', type: 'REPAY', coin: 'USDT', amount: '40', createAt: T + 4 * MIN },
      { id: 'I', type: 'DEDUCT_INTEREST', coin: 'USDT', amount: '-0.01', createAt: T + 2 * MIN },
    ];
    await statement.refresh(T + 5 * MIN);
    expect(statement.cashFlows()?.map((f) => `${f.kind} ${f.amount.toFixed()}`)).toEqual([
      'BORROW 100',
      'FUNDING_FEE 0.5',
      'DEDUCT_INTEREST -0.01',
      'REPAY -40',
    ]);
    expect(statement.warnings(D('12.5'), 'USDT')).toEqual([]);
    expect(statement.warnings(ZERO, 'USDT')).toEqual([
      "The venue's statement lists 12.5 USDT of liquidation fees, its liquidation pushes 0 USDT: the liquidation figures count the pushes.",
    ]);
  });

  it('lists a charge before a borrow or repay of the same ms, as the sim books them, whichever statement arrives first', async () => {
    // The interest of the hour a repay ends is charged first (sim `repay`): a backtest lists it
    // first. Here the loan statement's fetch finishes before the trading statement's.
    async function* later<T>(rows: readonly T[]): AsyncGenerator<T> {
      await new Promise((r) => setTimeout(r, 20));
      yield* rows;
    }
    async function* now<T>(rows: readonly T[]): AsyncGenerator<T> {
      yield* rows;
    }
    const pages: StatementPages = {
      trading: () =>
        later<StatementWire>([
          { id: 'i', type: 'DEDUCT_INTEREST', coin: 'USDT', amount: '-0.004', createAt: T + 4 * MIN },
        ]),
      loans: () =>
        now<MarginLoanStatementWire>([
          { id: 'B', type: 'BORROW', coin: 'USDT', amount: '100', createAt: T },
          { id: 'R', type: 'REPAY', coin: 'USDT', amount: '40', createAt: T + 4 * MIN },
        ]),
    };
    const statement = new SessionStatement({ pages, begin: T, logger });
    await statement.refresh(T + 5 * MIN);
    expect(statement.cashFlows()?.map((f) => `${f.kind} ${f.amount.toFixed()}`)).toEqual([
      'BORROW 100',
      'DEDUCT_INTEREST -0.004',
      'REPAY -40',
    ]);
  });

  it('leaves the cash flows out, and says why, when the statement could never be fetched', async () => {
    const { state, pages } = scriptedPages();
    const statement = new SessionStatement({ pages, begin: T, logger });
    state.fail = 'HTTP 503 at GET /api/v1/trading/statement';
    await statement.refresh(T + MIN);
    expect(statement.cashFlows()).toBeUndefined();
    expect(statement.warnings(ZERO, 'USDT')).toEqual([
      "The venue's trading statement could not be fetched (HTTP 503 at GET /api/v1/trading/statement): funding and interest paid are left out of this result (the equity figures include them).",
      "The venue's margin-loan statement could not be fetched (HTTP 503 at GET /api/v1/trading/statement): loan borrows and repays are not listed in this result.",
    ]);
  });

  it('keeps what an earlier fetch found when the last one fails, and says up to when the figures are whole', async () => {
    const { state, pages } = scriptedPages();
    const statement = new SessionStatement({ pages, begin: T, logger });
    state.trading = [funding('a', T + MIN, '-1')];
    await statement.refresh(T + 5 * MIN);
    state.fail = 'socket hang up';
    await statement.refresh(T + 10 * MIN);
    expect(statement.cashFlows()?.map((f) => f.amount.toFixed())).toEqual(['-1']);
    expect(statement.warnings(ZERO, 'USDT')[0]).toBe(
      `The venue's trading statement could be fetched only up to ${new Date(T + 5 * MIN).toISOString()} (then: socket hang up): entries after that are missing from this result's cash flows.`,
    );
  });

  it('gives up on a statement that never answers, so a session’s end does not hang on it', async () => {
    const { state, pages } = scriptedPages();
    state.hang = true;
    const statement = new SessionStatement({ pages, begin: T, logger, timeoutMs: 50 });
    await statement.refresh(T + MIN);
    expect(statement.cashFlows()).toBeUndefined();
    expect(statement.warnings(ZERO, 'USDT')[0]).toBe(
      "The venue's trading statement could not be fetched (no answer within 0.05 s): funding and interest paid are left out of this result (the equity figures include them).",
    );
  });

  it('is cut short by a stopping session’s deadline: what it had not fetched fails for that reason, and a late answer is dropped', async () => {
    const { state, pages } = scriptedPages();
    let answer: () => void = () => {};
    const late = new Promise<void>((resolve) => (answer = resolve));
    const slowPages: StatementPages = {
      trading: async function* (window) {
        await late;
        yield* pages.trading(window);
      },
      loans: (window) => pages.loans(window),
    };
    state.trading = [funding('f1', T + MIN, '-1')];
    const statement = new SessionStatement({ pages: slowPages, begin: T, logger });
    const stop = new AbortController();
    const refreshed = statement.refresh(T + 5 * MIN, stop.signal);
    // The loan statement answered; the trading one has not when the deadline passes.
    await new Promise((resolve) => setTimeout(resolve, 10));
    stop.abort(new Error('the stop ran out of time'));
    await refreshed;
    answer();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(statement.cashFlows()).toBeUndefined();
    expect(statement.warnings(ZERO, 'USDT')).toEqual([
      "The venue's trading statement could not be fetched (the stop ran out of time): funding and interest paid are left out of this result (the equity figures include them).",
    ]);
  });

  it('is not fetched at all once the deadline has passed', async () => {
    const { state, pages } = scriptedPages();
    const statement = new SessionStatement({ pages, begin: T, logger });
    const stop = new AbortController();
    stop.abort(new Error('too late'));
    await statement.refresh(T + 5 * MIN, stop.signal);
    expect(state.windows).toEqual([]);
    expect(statement.warnings(ZERO, 'USDT')).toHaveLength(2);
    expect(statement.warnings(ZERO, 'USDT')[1]).toBe(
      "The venue's margin-loan statement could not be fetched (too late): loan borrows and repays are not listed in this result.",
    );
  });

  it('asks for no more than the 90 days the venue keeps, and says the session is longer', async () => {
    const { state, pages } = scriptedPages();
    const statement = new SessionStatement({ pages, begin: T, logger });
    await statement.refresh(T + 100 * DAY);
    expect(state.windows[0]).toEqual({ begin: T + 10 * DAY + MIN, end: T + 100 * DAY });
    expect(statement.warnings(ZERO, 'USDT')).toEqual([
      'The session is longer than the 90 days the venue keeps statements: entries older than that were no longer listed.',
    ]);
  });

  it('lists an entry it cannot read in a warning, not as a cash flow', async () => {
    const { state, pages } = scriptedPages();
    const statement = new SessionStatement({ pages, begin: T, logger });
    state.trading = [{ id: 'z', type: 'FUNDING_FEE', coin: 'USDT', createAt: T + MIN }];
    await statement.refresh(T + 5 * MIN);
    expect(statement.cashFlows()).toEqual([]);
    expect(statement.warnings(ZERO, 'USDT')).toEqual([
      '1 statement entry could not be read and is left out of the cash flows: statement entry z (FUNDING_FEE) has no amount.',
    ]);
  });
});

const opened = closedAfterEachTest();

describe('a session’s statement on the paper venue', () => {
  it('pages through the trading statement with the REST client and keeps every funding entry once', async () => {
    const btc = 'BINANCE_PERP_BTC_USDT';
    const mark = (ts: number, next: number) => ({
      recvTs: ts,
      msg: {
        arg: { channel: 'MARK_PRICE', sym: btc },
        data: { markPrice: '100', ts, fundingRate: '0.001', nextFundingTime: next },
      },
    });
    const HOUR = 3_600_000;
    opened.venue = await aPaperVenue({
      feed: listFeed([
        bboPush(btc, '100.0', '100.1', T0),
        mark(T0 + 1000, T0 + HOUR),
        mark(T0 + HOUR + 1000, T0 + 2 * HOUR),
        mark(T0 + 2 * HOUR + 1000, T0 + 3 * HOUR),
        mark(T0 + 3 * HOUR + 1000, T0 + 4 * HOUR),
      ]),
    });
    const venue = opened.venue;
    venue.feed.step(2);
    await venue.feed.until(2);
    const order = await signedRest(venue, 'POST', '/api/v1/trading/order', {
      sym: btc,
      side: 'BUY',
      orderType: 'MARKET',
      orderQty: '1',
      clientOrderId: 'long',
    });
    expect(order.body.code).toBe(0);
    venue.feed.step(3);
    await venue.feed.until(5);
    // One entry a page: three funding times held, so three pages (and one more fetch overlapping them).
    const rest = new VenueRestClient({
      baseUrl: venue.restUrl,
      signer: hmacSigner(venue.apiKey, venue.apiSecret),
      defaultPageSize: 1,
      logger,
    });
    try {
      const statement = new SessionStatement({ pages: restStatementPages(rest), begin: T0, logger });
      await statement.refresh(T0 + 3 * HOUR + 1000);
      await statement.refresh(T0 + 3 * HOUR + 1000);
      expect(
        statement.cashFlows()?.map((f) => `${f.ts - T0} ${f.kind} ${f.amount.toFixed()} ${f.sym}`),
      ).toEqual([
        `${HOUR} FUNDING_FEE -0.1 ${btc}`,
        `${2 * HOUR} FUNDING_FEE -0.1 ${btc}`,
        `${3 * HOUR} FUNDING_FEE -0.1 ${btc}`,
      ]);
      expect(statement.warnings(ZERO, 'USDT')).toEqual([]);
    } finally {
      await rest.close();
    }
  });
});

describe('a session’s statement refreshed on a timer', () => {
  it('fetches every period of the clock it is given, from that clock’s time, until stopped', async () => {
    const { state, pages } = scriptedPages();
    const clock = fakeTimer(T);
    const statement = new SessionStatement({ pages, begin: T, logger });
    const stop = statement.refreshEvery(60 * MIN, clock);
    await clock.advance(59 * MIN);
    expect(state.windows).toEqual([]);
    await clock.advance(MIN);
    await clock.advance(60 * MIN);
    expect(state.windows.map((w) => w.end)).toEqual([
      T + 60 * MIN,
      T + 60 * MIN,
      T + 120 * MIN,
      T + 120 * MIN,
    ]);
    stop();
    await clock.advance(180 * MIN);
    expect(state.windows).toHaveLength(4);
  });

  it('times a fetch out on the timer it is given', async () => {
    const { state, pages } = scriptedPages();
    const wall = fakeTimer(T);
    const statement = new SessionStatement({ pages, begin: T, logger, timeoutMs: 5_000, timer: wall });
    state.hang = true;
    let done = false;
    void statement.refresh(T + MIN).then(() => {
      done = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    await wall.advance(4_999);
    expect(done).toBe(false);
    await wall.advance(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toBe(true);
    expect(statement.warnings(ZERO, 'USDT')[0]).toMatch(/no answer within 5 s/);
  });
});

import { cpSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { aMainAndSubVenue, closedAfterEachTest, withFirstQuotes } from '../../kit/paper-venue-builders.ts';
import { type PaperEndpoint, signedRest } from '../../kit/paper-venue-client.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
// Directories first: after-each hooks run last-registered first, so each venue closes before its directory goes.
const aDataDir = tempDirsRemovedAfterEach('paper-venue-markup-');
const opened = closedAfterEachTest();

/** No debounced snapshot within a test: only `close()` writes one. */
const NO_DEBOUNCED_SNAPSHOT = 3_600_000;

/** Starts the main + sub venue on a data dir (the test closes it, or the after-each hook does). */
async function venueOn(dataDir: string) {
  const started = await aMainAndSubVenue(
    { usdt: 10_000 },
    { dataDir, persistDebounceMs: NO_DEBOUNCED_SNAPSHOT },
  );
  opened.venue = started.venue;
  return started;
}

async function setMarkup(main: PaperEndpoint, bps: string): Promise<void> {
  const set = { subPortfolioId: 'PAPER-SUB', markup: bps };
  expect((await signedRest(main, 'POST', '/api/v1/broker/subFeeRate', set)).body.code).toBe(0);
}

/** The markup the main key reads for the sub, in bps. */
async function markupRead(main: PaperEndpoint): Promise<unknown> {
  const rate = await signedRest(main, 'GET', '/api/v1/broker/subFeeRate', { subPortfolioId: 'PAPER-SUB' });
  return (rate.body.data as { markup: string }).markup;
}

/** The fee of a market buy of 2 BTC at the ask 100.1 (notional 200.2) on the sub. */
async function subBuyFee(sub: PaperEndpoint, ref: string): Promise<string> {
  const buy = { sym: BTC, side: 'BUY', orderType: 'MARKET', orderQty: '2', clientOrderId: ref };
  expect((await signedRest(sub, 'POST', '/api/v1/trading/order', buy)).body.code).toBe(0);
  const fills = (await signedRest(sub, 'GET', '/api/v1/trading/executions', { sym: BTC })).body.data as {
    clientOrderId: string;
    fee: string;
  }[];
  return fills.find((f) => f.clientOrderId === ref)?.fee ?? 'no fill';
}

describe('paper venue sub-portfolio markups across a restart', () => {
  it('keeps a markup saved in the snapshot at close and charges it on the next fill', async () => {
    const dataDir = aDataDir();
    const first = await venueOn(dataDir);
    await withFirstQuotes(first.venue);
    await setMarkup(first.main, '2');
    await first.venue.close();

    const second = await venueOn(dataDir);
    expect(await markupRead(second.main)).toBe('2');
    // 200.2 x (taker 5 bps + markup 2 bps)
    expect(await subBuyFee(second.sub, 'after-restart')).toBe('0.14014');
  });

  it('keeps a markup set after the last snapshot, from the journal', async () => {
    const dataDir = aDataDir();
    const atCrash = aDataDir();
    const first = await venueOn(dataDir);
    await withFirstQuotes(first.venue);
    await first.venue.close();

    const second = await venueOn(dataDir);
    await setMarkup(second.main, '2');
    // What the disk holds when the process dies now: the snapshot of the first close, and the log.
    cpSync(dataDir, atCrash, { recursive: true });
    await second.venue.close();

    const third = await venueOn(atCrash);
    expect(await markupRead(third.main)).toBe('2');
    expect(await subBuyFee(third.sub, 'after-crash')).toBe('0.14014');
  });

  it('charges a markup changed after the last snapshot, not the older one the snapshot holds', async () => {
    const dataDir = aDataDir();
    const atCrash = aDataDir();
    const first = await venueOn(dataDir);
    await withFirstQuotes(first.venue);
    await setMarkup(first.main, '2');
    await first.venue.close();

    const second = await venueOn(dataDir);
    await setMarkup(second.main, '0.5');
    cpSync(dataDir, atCrash, { recursive: true });
    await second.venue.close();

    const third = await venueOn(atCrash);
    expect(await markupRead(third.main)).toBe('0.5');
    // 200.2 x (taker 5 bps + markup 0.5 bps)
    expect(await subBuyFee(third.sub, 'after-crash')).toBe('0.11011');
  });
});

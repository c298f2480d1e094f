import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CommandLog, loggedAfter } from '../../../backtest/paper-venue/command-log.ts';
import {
  type JournalEntry,
  listFeed,
  type PaperVenue,
  SNAPSHOT_FILE,
} from '../../../backtest/paper-venue/index.ts';
import { isTickEntry } from '../../../backtest/paper-venue/persistence.ts';
import { aMainAndSubVenue, aPaperVenue, withFirstQuotes } from '../../kit/paper-venue-builders.ts';
import { type CollectingSocket, loggedIn, signedRest } from '../../kit/paper-venue-client.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
let venue: PaperVenue | undefined;
const sockets: CollectingSocket[] = [];
const aDataDir = tempDirsRemovedAfterEach('paper-venue-');

afterEach(async () => {
  for (const s of sockets.splice(0)) await s.close();
  await venue?.close();
  venue = undefined;
});

const order = (ref: string, price = '99.0') => ({
  sym: BTC,
  side: 'BUY',
  orderType: 'LIMIT',
  orderQty: '1',
  limitPrice: price,
  clientOrderId: ref,
});

/**
 * After the first two quotes, places a buy the third quote fills and one it leaves resting, then
 * releases the third quote.
 */
async function fillAndRest(v: PaperVenue, fillRef: string, restRef: string): Promise<void> {
  await withFirstQuotes(v);
  await signedRest(v, 'POST', '/api/v1/trading/order', order(fillRef));
  await signedRest(v, 'POST', '/api/v1/trading/order', order(restRef, '90.0'));
  v.feed.step(1);
  await v.feed.until(3);
}

/** The clientOrderIds of the venue's open orders, sorted. */
async function openRefs(v: PaperVenue): Promise<string[]> {
  const open = await signedRest(v, 'GET', '/api/v1/trading/orders');
  return (open.body.data as { clientOrderId: string }[]).map((o) => o.clientOrderId).sort();
}

describe('paper venue persistence', () => {
  it('keeps orders, executions, positions and loans across a restart with a data dir', async () => {
    const dataDir = aDataDir();
    const first = await aPaperVenue({ dataDir });
    venue = first;
    await fillAndRest(first, 'keep-fill', 'keep-open');
    await signedRest(first, 'POST', '/api/v1/trading/marginLoan/loan/borrow', {
      exchange: 'BINANCE',
      coin: 'USDT',
      amount: '100',
    });
    await first.close();
    venue = undefined;
    expect(JSON.parse(readFileSync(join(dataDir, SNAPSHOT_FILE), 'utf8'))).toMatchObject({
      format: 'keel-paper-venue',
      released: 3,
    });

    const second = await aPaperVenue({ dataDir });
    venue = second;
    expect(second.feed.released).toBe(3);
    const open = await signedRest(second, 'GET', '/api/v1/trading/orders');
    expect(open.body.data).toEqual([expect.objectContaining({ clientOrderId: 'keep-open' })]);
    const fills = await signedRest(second, 'GET', '/api/v1/trading/executions');
    expect(fills.body.data).toEqual([expect.objectContaining({ clientOrderId: 'keep-fill', price: '99' })]);
    const positions = await signedRest(second, 'GET', '/api/v1/trading/position', { ignoreZero: true });
    expect(positions.body.data).toEqual([expect.objectContaining({ sym: BTC, positionQty: '1' })]);
    const loans = await signedRest(second, 'GET', '/api/v1/trading/loan/info_detail');
    expect(loans.body.data).toEqual([expect.objectContaining({ coin: 'USDT', loan: '100' })]);
  });

  it('refuses to restart from a snapshot with a different feed, since the journal only holds for the same events', async () => {
    const dataDir = aDataDir();
    const first = await aPaperVenue({ dataDir });
    first.feed.step(3);
    await first.feed.until(3);
    await first.close();
    await expect(aPaperVenue({ dataDir, feed: listFeed([]) })).rejects.toThrow(/the feed it was saved with/);
  });

  it('loses no acknowledged command when it crashes before a snapshot: each is logged before it runs', async () => {
    const dataDir = aDataDir();
    const atCrash = aDataDir();
    const first = await aPaperVenue({ dataDir, persistDebounceMs: 3_600_000 });
    venue = first;
    await fillAndRest(first, 'kept-fill', 'kept-open');
    await signedRest(first, 'POST', '/api/v1/trading/order', order('kept-late', '91.0'));
    // What the disk holds when the process dies now: no snapshot yet, only the command log.
    cpSync(dataDir, atCrash, { recursive: true });
    await first.close();
    expect(existsSync(join(atCrash, SNAPSHOT_FILE))).toBe(false);

    const second = await aPaperVenue({ dataDir: atCrash });
    venue = second;
    expect(second.feed.released).toBe(3);
    expect(await openRefs(second)).toEqual(['kept-late', 'kept-open']);
    const fills = await signedRest(second, 'GET', '/api/v1/trading/executions');
    expect(fills.body.data).toEqual([expect.objectContaining({ clientOrderId: 'kept-fill', price: '99' })]);
  });

  it('keeps every command in the log and only the feed position in the snapshot, and restarts from both', async () => {
    const dataDir = aDataDir();
    const atCrash = aDataDir();
    const first = await aPaperVenue({ dataDir, persistDebounceMs: 3_600_000 });
    venue = first;
    await withFirstQuotes(first);
    await signedRest(first, 'POST', '/api/v1/trading/order', order('in-snapshot', '90.0'));
    await first.close();
    venue = undefined;
    expect(loggedAfter(dataDir, 0)).toHaveLength(1);
    const closed = JSON.parse(readFileSync(join(dataDir, SNAPSHOT_FILE), 'utf8'));
    expect(closed).toMatchObject({ version: 2, released: 2, journalLength: 1 });
    expect(closed.journal).toBeUndefined();

    const second = await aPaperVenue({ dataDir, persistDebounceMs: 3_600_000 });
    venue = second;
    await signedRest(second, 'POST', '/api/v1/trading/order', order('after-snapshot', '91.0'));
    cpSync(dataDir, atCrash, { recursive: true });
    await second.close();

    const third = await aPaperVenue({ dataDir: atCrash });
    venue = third;
    expect(await openRefs(third)).toEqual(['after-snapshot', 'in-snapshot']);
  });

  it('keeps a portfolio’s commands when it is left out of a restart, and loses none placed after', async () => {
    const dataDir = aDataDir();
    const first = await aMainAndSubVenue({ usdt: 1_000 }, { dataDir });
    venue = first.venue;
    await withFirstQuotes(first.venue);
    await signedRest(first.sub, 'POST', '/api/v1/trading/order', order('sub-open', '90.0'));
    await first.venue.close();
    venue = undefined;

    // Restarted with the main portfolio only: the sub's command stays in the journal, unrun.
    const second = await aPaperVenue({ dataDir });
    venue = second;
    await signedRest(second, 'POST', '/api/v1/trading/order', order('main-open', '91.0'));
    await second.close();
    venue = undefined;
    expect(loggedAfter(dataDir, 0).map((e) => (isTickEntry(e) ? e : e.params.clientOrderId))).toEqual([
      'sub-open',
      'main-open',
    ]);

    const third = await aMainAndSubVenue({ usdt: 1_000 }, { dataDir });
    venue = third.venue;
    expect(await openRefs(third.venue)).toEqual(['main-open']);
    const subOpen = await signedRest(third.sub, 'GET', '/api/v1/trading/orders');
    expect((subOpen.body.data as { clientOrderId: string }[]).map((o) => o.clientOrderId)).toEqual([
      'sub-open',
    ]);
  });

  it('takes over a data dir of snapshot version 1 (journal inside, log after it) and moves its journal to the log', async () => {
    const dataDir = aDataDir();
    const first = await aPaperVenue({ dataDir });
    venue = first;
    await fillAndRest(first, 'v1-fill', 'v1-open');
    await first.close();
    venue = undefined;
    // The same state as Keel wrote it before version 2: the whole journal in the snapshot but
    // the last command, which is still in the log.
    const journal = loggedAfter(dataDir, 0);
    const { released, virtualNow } = JSON.parse(readFileSync(join(dataDir, SNAPSHOT_FILE), 'utf8'));
    const v1 = { format: 'keel-paper-venue', version: 1, released, virtualNow, markups: {}, view: null };
    writeFileSync(join(dataDir, SNAPSHOT_FILE), JSON.stringify({ ...v1, journal: journal.slice(0, -1) }));
    new CommandLog(dataDir).rewrite([]);
    new CommandLog(dataDir).append(journal[journal.length - 1] as JournalEntry, journal.length - 1);

    const second = await aPaperVenue({ dataDir });
    venue = second;
    expect(await openRefs(second)).toEqual(['v1-open']);
    await second.close();
    venue = undefined;
    expect(loggedAfter(dataDir, 0)).toEqual(journal);
    expect(JSON.parse(readFileSync(join(dataDir, SNAPSHOT_FILE), 'utf8'))).toMatchObject({
      version: 2,
      journalLength: journal.length,
    });
  });

  it('keeps nothing without a data dir', async () => {
    const first = await aPaperVenue();
    venue = first;
    await signedRest(first, 'POST', '/api/v1/trading/order', order('gone', '90.0'));
    await first.close();
    const second = await aPaperVenue();
    venue = second;
    expect((await signedRest(second, 'GET', '/api/v1/trading/orders')).body.data).toEqual([]);
  });
});

/** A fresh venue and one logged-in private socket, both closed after the test. */
async function aVenueWithPrivateSocket(): Promise<{ v: PaperVenue; socket: CollectingSocket }> {
  const v = await aPaperVenue();
  venue = v;
  const socket = await loggedIn(v.privateWsUrl, v);
  sockets.push(socket);
  return { v, socket };
}

describe('paper venue fault injection', () => {
  it('fails the next REST call with a 5xx, then answers normally', async () => {
    const v = await aPaperVenue();
    venue = v;
    v.faults.failNextRest({ kind: 'status', status: 503 });
    const failed = await signedRest(v, 'GET', '/api/v1/system/status');
    expect(failed.status).toBe(503);
    expect(failed.body.code).toBe(50001);
    expect((await signedRest(v, 'GET', '/api/v1/system/status')).status).toBe(200);
  });

  it('never answers a REST call it was told to time out', async () => {
    const v = await aPaperVenue();
    venue = v;
    v.faults.failNextRest({ kind: 'timeout', path: '/api/v1/system/status' });
    const outcome = await Promise.race([
      signedRest(v, 'GET', '/api/v1/system/status').then(
        () => 'answered',
        () => 'failed',
      ),
      new Promise((resolve) => setTimeout(() => resolve('timed out'), 300)),
    ]);
    expect(outcome).toBe('timed out');
  });

  it('withholds the next ack but still places the order', async () => {
    const { v, socket } = await aVenueWithPrivateSocket();
    v.faults.withholdNextAck();
    socket.send({ action: 'place_order', id: 'w1', args: order('withheld', '90.0') });
    await socket.waitFor((f) => f?.channel === 'Orders');
    expect(socket.frames.some((f) => f.includes('"event":"place_order"'))).toBe(false);
    expect(
      (await signedRest(v, 'GET', '/api/v1/trading/order', { clientOrderId: 'withheld' })).body.code,
    ).toBe(0);
  });

  it('duplicates and reorders pushes when told to', async () => {
    const { v, socket } = await aVenueWithPrivateSocket();
    v.faults.duplicateNextPushes(1);
    socket.send({ action: 'place_order', id: 'd1', args: order('dup-push', '90.0') });
    await socket.waitFor((f) => f?.event === 'place_order');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const pushes = socket.frames.filter((f) => f.includes('"channel"'));
    expect(pushes[0]).toBe(pushes[1]);

    const before = socket.frames.length;
    v.faults.reorderNextPushes(1);
    socket.send({ action: 'place_order', id: 'd2', args: order('first', '90.0') });
    socket.send({ action: 'place_order', id: 'd3', args: order('second', '90.0') });
    await socket.waitFor((f) => f?.event === 'place_order' && f.id === 'd3');
    await socket.waitFor((f) => f?.channel === 'Orders' && f.data[0].clientOrderId === 'first', 2000, before);
    const refs = socket.frames
      .slice(before)
      .map((f) => JSON.parse(f))
      .filter((f) => f.channel === 'Orders')
      .map((f) => f.data[0].clientOrderId);
    expect(refs).toEqual(['second', 'first']);
  });

  it('drops connections abruptly', async () => {
    const { v, socket } = await aVenueWithPrivateSocket();
    const closed = new Promise<number>((resolve) => socket.ws.once('close', (code) => resolve(code)));
    v.faults.dropConnections('private');
    expect(await closed).toBe(1006);
  });

  it('delays pushes by the configured time', async () => {
    const { v, socket } = await aVenueWithPrivateSocket();
    v.faults.delayPushes(150);
    socket.send({ action: 'place_order', id: 'l1', args: order('late', '90.0') });
    await socket.waitFor((f) => f?.event === 'place_order');
    expect(socket.frames.some((f) => f.includes('"channel"'))).toBe(false);
    await socket.waitFor((f) => f?.channel === 'Orders', 2000);
  });
});

import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataDirReplayError } from '../../../backtest/paper-venue/index.ts';
import { KEEL_VERSION } from '../../../core/model/index.ts';
import { aPaperVenue, closedAfterEachTest } from '../../kit/paper-venue-builders.ts';
import { signedRest } from '../../kit/paper-venue-client.ts';

const opened = closedAfterEachTest();

/**
 * The data dir exactly as `keel venue --data-dir` / startPaperVenue({ dataDir }) of commit 5d50b9c
 * (300 commits before 0.2.0) left it after one POST /api/v1/trading/order of a quote-sized market
 * order (orderQty "0", quoteOrderQty "50"), which that venue REFUSED with
 * {"code":400001,"message":"bad parameters: qty must be a positive multiple of 0.001"}:
 * no order, no execution, no position (its own `view` says so). This Keel fills such an order.
 */
const OLD_JOURNAL =
  '{"index":0,"entry":{"at":2,"portfolioId":"PAPER-MAIN","command":"placeOrder","params":{"sym":"BINANCE_PERP_BTC_USDT","side":"BUY","orderType":"MARKET","orderQty":"0","quoteOrderQty":"50","clientOrderId":"q"},"where":"POST /api/v1/trading/order"}}\n';
const OLD_SNAPSHOT = {
  format: 'keel-paper-venue',
  version: 2,
  released: 2,
  virtualNow: 1767225600001,
  journalLength: 1,
  markups: {},
  view: [
    {
      portfolioId: 'PAPER-MAIN',
      main: true,
      positionMode: 'NET',
      orders: [],
      executions: [],
      positions: [],
      loans: [],
    },
  ],
};

function oldDataDir(): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'keel-old-datadir-'));
  writeFileSync(join(dataDir, 'paper-venue.commands.jsonl'), OLD_JOURNAL);
  writeFileSync(join(dataDir, 'paper-venue.json'), JSON.stringify(OLD_SNAPSHOT, null, 1));
  return dataDir;
}

describe('paper venue data dir written by an older Keel, reopened by this one', () => {
  it('refuses to start when the replay would fill the order the old venue refused, naming it and what to do', async () => {
    const dataDir = oldDataDir();
    const start = aPaperVenue({ dataDir });
    await expect(start).rejects.toBeInstanceOf(DataDirReplayError);
    const message = await start.catch((error: Error) => error.message);
    expect(message).toContain(`this Keel (${KEEL_VERSION})`);
    expect(message).toContain('a Keel before 0.2.0');
    expect(message).toMatch(
      /portfolio PAPER-MAIN: the replay made order \S+ \(clientOrderId q\), which the saved venue did not hold: FILLED MARKET BUY 0\.499 BINANCE_PERP_BTC_USDT/,
    );
    expect(message).toContain('start it on a new data dir');
    expect(message).toContain('or with the Keel version that wrote this one');
  });

  it('leaves the data dir as it was and unlocked: its journal, snapshot and view are kept for the Keel that wrote it', async () => {
    const dataDir = oldDataDir();
    await expect(aPaperVenue({ dataDir })).rejects.toBeInstanceOf(DataDirReplayError);
    expect(readFileSync(join(dataDir, 'paper-venue.commands.jsonl'), 'utf8')).toBe(OLD_JOURNAL);
    expect(JSON.parse(readFileSync(join(dataDir, 'paper-venue.json'), 'utf8'))).toEqual(OLD_SNAPSHOT);
    expect(existsSync(join(dataDir, 'paper-venue.lock'))).toBe(false);
  });

  it('leaves a journal that ends in a torn line as it was: the refusal mends nothing', async () => {
    const dataDir = oldDataDir();
    const torn = `${OLD_JOURNAL}{"index":1,"entry":{"at":2,"portf`;
    writeFileSync(join(dataDir, 'paper-venue.commands.jsonl'), torn);
    await expect(aPaperVenue({ dataDir })).rejects.toBeInstanceOf(DataDirReplayError);
    expect(readFileSync(join(dataDir, 'paper-venue.commands.jsonl'), 'utf8')).toBe(torn);
    expect(existsSync(join(dataDir, 'paper-venue.lock'))).toBe(false);
  });

  it('starts on it when the replay gives the account its view holds, and writes this Keel and the balances at close', async () => {
    const dataDir = oldDataDir();
    // An order of no size at all: refused by every Keel.
    writeFileSync(
      join(dataDir, 'paper-venue.commands.jsonl'),
      OLD_JOURNAL.replace(',"quoteOrderQty":"50"', ''),
    );
    const first = await aPaperVenue({ dataDir });
    const order = (await signedRest(first, 'GET', '/api/v1/trading/order', { clientOrderId: 'q' })).body;
    expect({ code: order.code, data: order.data }).toEqual({ code: 401018, data: null });
    await first.close();
    const saved = JSON.parse(readFileSync(join(dataDir, 'paper-venue.json'), 'utf8'));
    expect(saved.keel).toBe(KEEL_VERSION);
    expect(saved.view[0].assets).toContainEqual(expect.objectContaining({ coin: 'USDT', balance: '100000' }));
    opened.venue = await aPaperVenue({ dataDir });
    const executions = (await signedRest(opened.venue, 'GET', '/api/v1/trading/executions', {})).body;
    expect(executions.data).toEqual([]);
  });
});

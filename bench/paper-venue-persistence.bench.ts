import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  COMMAND_LOG_FILE,
  type JournalEntry,
  listFeed,
  SNAPSHOT_FILE,
  startPaperVenue,
} from '../backtest/paper-venue/index.ts';
import { anInstrument } from '../test/kit/instrument-builders.ts';

// Paper venue persistence with a long history: a data dir whose journal holds COMMANDS commands
// (a place and a cancel of a far-away limit order after each of EVENTS SYNTHETIC BBO events), as a
// market maker leaves after hours of paper trading. Prints the restart time (replaying the feed
// and the journal), the snapshot's size, and the time of the close (the snapshot with the view of
// every order for people), then the time of a second restart, from that snapshot, which checks the
// replayed account against its view. Target: a restart linear in events + commands; a snapshot of
// constant size, so the debounced write each second costs the same after an hour as after a minute.

const SYM = 'BINANCE_PERP_BTC_USDT';
const EVENTS = 50_000;
const COMMANDS = 2 * EVENTS;
const T0 = Date.UTC(2026, 0, 1);

const pushes = Array.from({ length: EVENTS + 1 }, (_, i) => ({
  recvTs: T0 + i * 100,
  msg: {
    arg: { channel: 'BBO', sym: SYM },
    data: { bid: '100.0', bidqty: '5', ask: '100.1', askqty: '5', ts: T0 + i * 100 },
  },
}));

function entry(at: number, command: 'placeOrder' | 'cancelOrder', ref: string): JournalEntry {
  const order = { sym: SYM, side: 'BUY', orderType: 'LIMIT', orderQty: '1', limitPrice: '50.0' };
  return {
    at,
    portfolioId: 'PAPER-MAIN',
    command,
    params: command === 'placeOrder' ? { ...order, clientOrderId: ref } : { sym: SYM, clientOrderId: ref },
    where: command === 'placeOrder' ? 'POST /api/v1/trading/order' : 'DELETE /api/v1/trading/order',
  };
}

const dataDir = mkdtempSync(join(tmpdir(), 'keel-paper-persistence-'));
try {
  const lines: string[] = [];
  for (let i = 0; i < EVENTS; i++) {
    const ref = `mm-${i.toString(36)}`;
    lines.push(JSON.stringify({ index: 2 * i, entry: entry(i + 1, 'placeOrder', ref) }));
    lines.push(JSON.stringify({ index: 2 * i + 1, entry: entry(i + 1, 'cancelOrder', ref) }));
  }
  writeFileSync(join(dataDir, COMMAND_LOG_FILE), `${lines.join('\n')}\n`);
  const saved = { format: 'keel-paper-venue', version: 2, released: EVENTS, journalLength: COMMANDS };
  const virtualNow = T0 + (EVENTS - 1) * 100;
  writeFileSync(join(dataDir, SNAPSHOT_FILE), JSON.stringify({ ...saved, virtualNow, markups: {} }));

  const started = performance.now();
  const venue = await startPaperVenue({
    instruments: [anInstrument(SYM)],
    feed: listFeed(pushes),
    pacing: { mode: 'manual' },
    dataDir,
    persistDebounceMs: 0,
  });
  const restartMs = performance.now() - started;
  venue.feed.step(1);
  await venue.feed.until(EVENTS + 1);
  await new Promise((resolve) => setTimeout(resolve, 50));
  const snapshotBytes = statSync(join(dataDir, SNAPSHOT_FILE)).size;
  const closing = performance.now();
  await venue.close();
  const closeMs = performance.now() - closing;
  const viewBytes = statSync(join(dataDir, SNAPSHOT_FILE)).size;
  const again = performance.now();
  const reopened = await startPaperVenue({
    instruments: [anInstrument(SYM)],
    feed: listFeed(pushes),
    pacing: { mode: 'manual' },
    dataDir,
    persistDebounceMs: 0,
  });
  const checkedRestartMs = performance.now() - again;
  await reopened.close();
  const perEvent = (restartMs * 1000) / (EVENTS + COMMANDS);
  process.stdout.write(
    `restart      ${Math.round(restartMs)} ms for ${EVENTS.toLocaleString('en-US')} SYNTHETIC events and ` +
      `${COMMANDS.toLocaleString('en-US')} journaled commands (${perEvent.toFixed(1)} us per event or command)\n` +
      `snapshot     ${snapshotBytes} bytes after the next event (the debounced write: feed position, journal length)\n` +
      `close        ${Math.round(closeMs)} ms, snapshot with the view of every order: ` +
      `${(viewBytes / 2 ** 20).toFixed(1)} MiB (written once, at close)\n` +
      `restart      ${Math.round(checkedRestartMs)} ms from that snapshot, the replayed account checked against its view\n`,
  );
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RecordingDamage, readEventBatches } from '../../backtest/recording/index.ts';
import { EVENT_CACHE_FORMAT } from '../../backtest/runner/event-cache-meta.ts';
import { decodeSessionRecord, SESSION_DECODER_ID } from '../../config/session-decoder.ts';
import { D } from '../../core/model/index.ts';
import { tempDirsRemovedAfterEach } from '../kit/temp-dirs.ts';
import { WIRE_EXECUTION, WIRE_ORDER } from '../kit/venue-wire-samples.ts';

// An event cache keeps what the reader and SESSION_DECODER_ID's decoder made of a recording: its
// events, and the lines skipped or warned of (`skipped`, which a run from the cache warns of). A
// cache is reused while its decoder id and format are this Keel's, so a change of what either
// yields must bump one of them, or a cache an older Keel kept goes on giving the old events and
// warnings. This test reads a fixed corpus (every market-data channel, a gap record, private
// frames, malformed lines, every number form the wire readers refuse, receive-time jumps warned
// and not) and compares a digest of what comes out with the one stored for this decoder id and
// cache format.
//
// When it fails: if the change is meant, bump SESSION_DECODER_ID (config/session-decoder.ts) when
// decoding changed, or EVENT_CACHE_FORMAT (backtest/runner/event-cache-meta.ts) when the reader's
// warnings changed, then ADD a line for the new key below with the digest the failure shows. Never
// edit an existing line to make a decoding change pass: the line is what that key's decoding gave.
// Only a change of the corpus itself (which changes every digest, and cannot be replayed through
// older decoders) replaces the table with the current key and the digest the new corpus gives.
const DIGESTS: Readonly<Record<string, string>> = {
  'session-decoder-v2 / event-cache-format-6':
    '3d3cd818fd65146732d1c7057445fe68bde606f5b4a9209af9b3a8a9777ffdb7',
};

const tempDir = tempDirsRemovedAfterEach('keel-decoder-digest-');
const SYM = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2025, 0, 1);
const SECOND = 1_000;
const DAY = 86_400_000;

function market(recvTs: number, channel: string, data: Record<string, unknown>, extra = {}): string {
  return JSON.stringify({
    recvTs,
    source: 'market-data',
    msg: { arg: { channel, sym: SYM, ...extra }, data },
  });
}

function bbo(recvTs: number, bid: string, ask: string): string {
  return market(recvTs, 'BBO', { bid, bidqty: '1.5', ask, askqty: '0.25', ts: recvTs - 3 });
}

/**
 * Lines each holding one number the wire readers refuse: a negative size of every channel with
 * one, and each malformed-number form `+text` would read (or another parser might).
 */
function refusedNumbers(recvTs: number): string[] {
  const ts = recvTs - 3;
  const kline = {
    openTime: recvTs - 60_000,
    open: '95000',
    high: '95010.5',
    low: '94990',
    close: '95001',
    volume: '12.5',
    closed: true,
    ts,
  };
  const ticker = { last: '95000.5', high24h: '96000', low24h: '94000', volume24h: '1234.5', ts };
  const negativeSizes = [
    market(recvTs, 'BBO', { bid: '95000', bidqty: '-1.5', ask: '95001', askqty: '0.25', ts }),
    market(recvTs, 'BBO', { bid: '95000', bidqty: '1.5', ask: '95001', askqty: '-0.25', ts }),
    market(recvTs, 'TRADE', { tradeId: 'tr-neg', price: '95000.5', qty: '-0.010', side: 'SELL', ts }),
    market(recvTs, 'KLINE', { ...kline, volume: '-12.5' }, { interval: '1m' }),
    market(recvTs, 'ORDER_BOOK', { bids: [['95000', '-1']], asks: [['95000.5', '2']], ts }),
    market(recvTs, 'ORDER_BOOK', { bids: [['95000', '1']], asks: [['95000.5', '-2']], ts }),
    market(recvTs, 'TICKER', { ...ticker, volume24h: '-1234.5' }),
    market(recvTs, 'OPEN_INTEREST', { openInterest: '-321.5', ts }),
  ];
  const malformed: unknown[] = [
    ' 95000 ',
    '95000 ',
    '0x10',
    '0b1011',
    '0o17',
    '-0x10',
    '1e3',
    '1E-3',
    'Infinity',
    '-Infinity',
    'NaN',
    '.5',
    '5.',
    '-',
    '',
    '+5',
    '--5',
    '1_000',
    '95,000',
    '95000.5.1',
    '٩٥٠٠٠',
    '9'.repeat(400),
    95000,
    null,
  ];
  const malformedNumbers = malformed.flatMap((text) => [
    market(recvTs, 'BBO', { bid: text, bidqty: '1.5', ask: '95001', askqty: '0.25', ts }),
    market(recvTs, 'BBO', { bid: '95000', bidqty: text, ask: '95001', askqty: '0.25', ts }),
    market(recvTs, 'TRADE', { tradeId: 'tr-bad', price: '95000.5', qty: text, side: 'SELL', ts }),
    market(recvTs, 'MARK_PRICE', { markPrice: '95000.2', fundingRate: text, nextFundingTime: ts, ts }),
  ]);
  return [...negativeSizes, ...malformedNumbers];
}

/** The corpus: one line per record, after the header; each kind of record and damage Keel reads. */
function corpusLines(): string[] {
  const steady = Array.from({ length: 12 }, (_, i) => bbo(T0 + i * SECOND, `95000.${i}`, `95000.${i + 1}`));
  const t = T0 + 12 * SECOND;
  return [
    JSON.stringify({
      format: 'keel-session',
      formatVersion: 1,
      venue: 'digest corpus',
      symbols: [SYM],
      startTime: T0,
      synthetic: true,
    }),
    ...steady,
    market(t, 'TRADE', { tradeId: 'tr-1', price: '95000.5', qty: '0.010', side: 'SELL', ts: t - 1 }),
    market(
      t + 1,
      'KLINE',
      {
        openTime: t - 60_000,
        open: '95000',
        high: '95010.5',
        low: '94990',
        close: '95001',
        volume: '12.5',
        closed: true,
        ts: t,
      },
      { interval: '1m' },
    ),
    market(t + 2, 'ORDER_BOOK', { bids: [['95000', '1']], asks: [['95000.5', '2']], ts: t + 1 }),
    market(t + 3, 'MARK_PRICE', {
      markPrice: '95000.2',
      indexPrice: '94999.9',
      fundingRate: '0.0001',
      nextFundingTime: T0 + 8 * 3_600_000,
      ts: t + 2,
    }),
    market(t + 4, 'TICKER', {
      last: '95000.5',
      high24h: '96000',
      low24h: '94000',
      volume24h: '1234.5',
      ts: t + 3,
    }),
    market(t + 5, 'INDEX_PRICE', { indexPrice: '94999.8', ts: t + 4 }),
    market(t + 6, 'OPEN_INTEREST', { openInterest: '321.5', ts: t + 5 }),
    JSON.stringify({
      recvTs: t + 7,
      source: 'market-data',
      msg: { keelGap: { sym: SYM, fromTs: t - 5_000, ts: t + 7, reason: 'reconnected' } },
    }),
    JSON.stringify({
      recvTs: t + 8,
      source: 'private',
      msg: { channel: 'Orders', ts: t + 8, data: [WIRE_ORDER] },
    }),
    JSON.stringify({
      recvTs: t + 9,
      source: 'private',
      msg: { channel: 'Trades', ts: t + 9, data: [WIRE_EXECUTION] },
    }),
    JSON.stringify({ recvTs: t + 10, source: 'private', msg: 'pong' }),
    'this line is not JSON',
    JSON.stringify({ recvTs: 'soon', source: 'market-data', msg: {} }),
    JSON.stringify({ recvTs: t + 11, source: 'market-data', msg: { arg: { channel: 'BBO', sym: SYM } } }),
    bbo(t + 12, '1e5', '95001'),
    ...refusedNumbers(t + 12),
    // 40 days forward after one-second steps: warned; then back again: warned.
    bbo(t + 40 * DAY, '95002', '95003'),
    bbo(t + 40 * DAY + SECOND, '95002', '95003'),
    bbo(t + 13, '95004', '95005'),
    // Daily bars with a month missing: a forward jump that is no time jump for daily steps.
    ...Array.from({ length: 400 }, (_, i) => bbo(t + (i + 1) * DAY, '95006', '95007')),
    bbo(t + 440 * DAY, '95008', '95009'),
  ];
}

/** JSON with object keys sorted and decimals as text, so the digest does not depend on field order. */
function canonical(value: unknown): unknown {
  if (D.isDecimal(value)) return `decimal:${(value as { toString(): string }).toString()}`;
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const item = (value as Record<string, unknown>)[key];
      if (item !== undefined) out[key] = canonical(item);
    }
    return out;
  }
  return value;
}

async function decodedCorpus(): Promise<{
  readonly digest: string;
  readonly events: number;
  readonly skipped: unknown;
}> {
  const path = join(tempDir(), 'corpus.jsonl');
  writeFileSync(path, `${corpusLines().join('\n')}\n`);
  const damage = new RecordingDamage();
  const events: unknown[] = [];
  for await (const batch of readEventBatches(path, decodeSessionRecord, {
    onMalformed: 'skip',
    onWarning: damage.note,
    onTimeJump: damage.note,
  }))
    events.push(...batch);
  // A line that is not JSON is described by V8's parser, whose words change between Node versions.
  const skipped = damage
    .skippedIn(path)
    .map((lines) => (lines.kind === 'not-json' ? { ...lines, first: { line: lines.first.line } } : lines));
  const digest = createHash('sha256')
    .update(JSON.stringify(canonical({ events, skipped })))
    .digest('hex');
  return { digest, events: events.length, skipped };
}

describe('what the session decoder and the recording reader make of a fixed corpus', () => {
  it('is the digest stored for this decoder id and event-cache format (bump one when it changes)', async () => {
    const key = `${SESSION_DECODER_ID} / event-cache-format-${EVENT_CACHE_FORMAT}`;
    const { digest } = await decodedCorpus();
    expect(
      { key, digest },
      'decoding or the reader changed what an event cache keeps: bump SESSION_DECODER_ID or EVENT_CACHE_FORMAT and add the new key and digest (see the top of this file)',
    ).toEqual({ key, digest: DIGESTS[key] });
  });

  it('reads every kind of line of the corpus: events of each channel, skipped lines and two time jumps', async () => {
    const { events, skipped } = await decodedCorpus();
    expect(events).toBeGreaterThan(420);
    expect((skipped as { kind: string; count: number }[]).map((s) => [s.kind, s.count])).toEqual([
      ['not-json', 1],
      ['not-a-record', 1],
      // A BBO without data, one with an exponent, and each line of refused numbers.
      ['undecodable', 2 + refusedNumbers(T0).length],
      ['time-jump', 2],
    ]);
  });

  it('keeps a digest per key, each different: a new key comes with the digest its change made', () => {
    expect(new Set(Object.values(DIGESTS)).size).toBe(Object.keys(DIGESTS).length);
  });
});

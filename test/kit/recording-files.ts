import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import {
  type MessageSource,
  type RecordedMessage,
  type RecordingReadOptions,
  RecordingWriter,
  readRecordBatches,
  type SessionHeaderInit,
} from '../../backtest/recording/index.ts';

/** A header for test recordings. */
export const TEST_HEADER: SessionHeaderInit = {
  venue: 'test',
  symbols: ['BINANCE_PERP_BTC_USDT'],
  startTime: 1_736_173_800_000,
  synthetic: true,
};

/**
 * A fresh temporary directory and a function that removes it (call it in afterEach).
 * @returns the directory and its remover
 */
export function tempDir(): { readonly dir: string; readonly remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'keel-test-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Writes records to a new recording.
 * @param path - `.jsonl` or `.jsonl.gz`
 * @param records - the messages
 * @param flushChars - writer buffer size (small values make many gzip members)
 */
export async function writeRecording(
  path: string,
  records: readonly RecordedMessage[],
  flushChars = 1 << 18,
): Promise<void> {
  const writer = await RecordingWriter.open(path, TEST_HEADER, { flushChars });
  for (const r of records) writer.append(r.recvTs, r.source, r.msg);
  writer.close();
}

/**
 * Reads every record of a recording, collecting warnings instead of printing them.
 * @param path - the recording
 * @param options - reader options (onWarning is replaced)
 * @returns the records and the warnings' messages
 */
export async function readAll(
  path: string,
  options: RecordingReadOptions = {},
): Promise<{ readonly records: RecordedMessage[]; readonly warnings: string[] }> {
  const records: RecordedMessage[] = [];
  const warnings: string[] = [];
  for await (const batch of readRecordBatches(path, {
    ...options,
    onWarning: (w) => warnings.push(w.message),
  })) {
    records.push(...batch);
  }
  return { records, warnings };
}

/** A recorded message with any JSON payload, non-ASCII text included (normalised through JSON so -0 compares equal). */
export const recordedMessageArb: fc.Arbitrary<RecordedMessage> = fc
  .record({
    recvTs: fc.integer({ min: 0, max: 4_102_444_800_000 }),
    source: fc.constantFrom<MessageSource>('market-data', 'private'),
    msg: fc.jsonValue({ stringUnit: 'grapheme' }),
  })
  .map((r) => ({ ...r, msg: JSON.parse(JSON.stringify(r.msg)) as unknown }));

/**
 * A BBO message in the venue's wire shape.
 * @param i - varies prices and time
 * @returns the record
 */
export function bboRecord(i: number): RecordedMessage {
  return {
    recvTs: 1_000 + i,
    source: 'market-data',
    msg: {
      arg: { channel: 'BBO', sym: 'BINANCE_PERP_BTC_USDT' },
      data: { bid: `${95_000 + i}.1`, bidqty: '1.5', ask: `${95_000 + i}.3`, askqty: '0.25', ts: 990 + i },
    },
  };
}

/**
 * A recorded BBO quote (of BTC unless `sym` says otherwise), 5 on each side, `dt` ms after
 * {@link TEST_HEADER}'s start (a Monday's 09:30 New York, when US equities open), received when sent.
 * @param dt - ms after the start
 * @param bid - bid price as the venue writes it
 * @param ask - ask price as the venue writes it
 * @param sym - the quoted sym (default BINANCE_PERP_BTC_USDT)
 * @returns the record
 */
export function quoteRecordAt(
  dt: number,
  bid: string,
  ask: string,
  sym = 'BINANCE_PERP_BTC_USDT',
): RecordedMessage {
  const ts = TEST_HEADER.startTime + dt;
  return {
    recvTs: ts,
    source: 'market-data',
    msg: {
      arg: { channel: 'BBO', sym },
      data: { bid, bidqty: '5', ask, askqty: '5', ts },
    },
  };
}

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  RecordingDamage,
  readEventBatches,
  UnreadableRecordingError,
} from '../../../backtest/recording/index.ts';
import { cachedMarketEvents, eventCachePaths, runBacktest } from '../../../backtest/runner/index.ts';
import { marketOnly } from '../../../backtest/runner/replay-window.ts';
import { decodeSessionRecord } from '../../../config/session-decoder.ts';
import { flatBarsRecordingIn } from '../../kit/bar-recordings.ts';
import { barRunOptions } from '../../kit/bar-run-options.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { writeRecording } from '../../kit/recording-files.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2024, 0, 1);
const tempDir = tempDirsRemovedAfterEach('keel-unreadable-recordings-');

/** A recording's header followed by `lines` (each ended by a newline unless `cut`). */
async function headerThen(dir: string, name: string, lines: readonly string[], cut = false): Promise<string> {
  const path = join(dir, name);
  await writeRecording(path, []);
  const header = readFileSync(path, 'utf8');
  writeFileSync(path, `${header}${lines.join('\n')}${cut || lines.length === 0 ? '' : '\n'}`);
  return path;
}

async function backtest(recordings: readonly string[], cached = false) {
  const told: string[] = [];
  const result = await runBacktest({
    ...barRunOptions(recordings[0] as string, [anInstrument(BTC)], []),
    recordings,
    decode: decodeSessionRecord,
    onRecordingDamage: (warning) => told.push(warning.message),
    ...(cached ? { eventCache: { decoderId: 'unreadable-test-v1' } } : {}),
  });
  const warnings = result.meta.warnings ?? [];
  result.dispose?.();
  return { told, warnings };
}

/** What a backtest of `recordings` threw. */
async function refusal(recordings: readonly string[], cached = false): Promise<UnreadableRecordingError> {
  const error = await backtest(recordings, cached).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(UnreadableRecordingError);
  return error as UnreadableRecordingError;
}

const CSV = [
  'ts,open,high,low,close,volume',
  '1704067200000,100,101,99,100.5,12',
  '1704067260000,100.5,102,100,101,7',
];

// A recording with no line Keel could read (a CSV or another tool's JSONL behind a Keel header)
// was a clean run: exit 0, an empty report and a "skipped N lines" warning a CI never reads.
describe('a backtest of a recording none of whose lines Keel can read', () => {
  for (const cached of [false, true]) {
    it(`is refused, naming the file, how many lines and the first, and why${cached ? ' (event cache on)' : ''}`, async () => {
      const dir = tempDir();
      const path = await headerThen(dir, 'bars.jsonl', CSV);
      const error = await refusal([path], cached);
      expect({ file: error.file, line: error.line, malformed: error.malformed }).toEqual({
        file: path,
        line: 2,
        malformed: 3,
      });
      expect(error.message).toMatch(
        new RegExp(
          `^${path} holds no market data Keel can read: 3 lines after its header are malformed, the first at ${path}:2: is not JSON \\(.+\\)\\. Is it a Keel recording of this venue\\?`,
        ),
      );
      // Nothing was cached of it: the next run reads the file again, and is refused again.
      expect(existsSync(eventCachePaths(path).meta)).toBe(false);
    });
  }

  it('is refused from the event cache an earlier Keel kept of it, as from the file', async () => {
    const dir = tempDir();
    const path = await headerThen(dir, 'bars.jsonl', CSV);
    // What a backtest of it kept before it was refused: a cache of no event and 3 skipped lines.
    const damage = new RecordingDamage();
    const read = () =>
      readEventBatches(path, (record) => marketOnly(record, decodeSessionRecord), {
        onMalformed: 'skip',
        onWarning: damage.note,
      });
    const cachedEvents: unknown[] = [];
    for await (const batch of cachedMarketEvents(path, 'unreadable-test-v1', read, damage))
      cachedEvents.push(...batch);
    expect(cachedEvents).toEqual([]);
    expect(existsSync(eventCachePaths(path).meta)).toBe(true);
    const error = await refusal([path], true);
    expect({ line: error.line, malformed: error.malformed }).toEqual({ line: 2, malformed: 3 });
  });

  it('counts lines of every kind of damage, and names the first of them', async () => {
    const dir = tempDir();
    const path = await headerThen(dir, 'other.jsonl', [
      '{"ts":1704067200000,"price":"100"}',
      'not json',
      `{"recvTs":${T0},"source":"market-data","msg":{"arg":{"channel":"WEIRD","sym":"${BTC}"},"data":{}}}`,
    ]);
    const error = await refusal([path]);
    expect({ line: error.line, malformed: error.malformed }).toEqual({ line: 2, malformed: 3 });
    expect(error.reason).toMatch(/^recvTs must be epoch milliseconds/);
  });

  it('is refused among readable recordings too, by its own name', async () => {
    const dir = tempDir();
    const good = await flatBarsRecordingIn(dir, 3, T0, BTC);
    const bad = await headerThen(dir, 'bad.jsonl', CSV);
    const error = await refusal([good, bad]);
    expect(error.file).toBe(bad);
  });
});

describe('a backtest of a recording Keel reads some lines of, or none because it has none', () => {
  it('some lines malformed: runs, with the counted warning', async () => {
    const dir = tempDir();
    const path = await flatBarsRecordingIn(dir, 3, T0, BTC);
    writeFileSync(path, `${readFileSync(path, 'utf8')}not json\n`);
    const { warnings } = await backtest([path]);
    expect(warnings).toContainEqual(expect.stringMatching(/skipped 1 line \(not JSON\) at .*bars\.jsonl:5/));
  });

  it('a header and nothing else: runs (its warnings say the recordings held no data)', async () => {
    const dir = tempDir();
    const path = await headerThen(dir, 'empty.jsonl', []);
    await expect(backtest([path])).resolves.toBeDefined();
  });

  it('only a last line cut short (a recorder that crashed as it began): runs, warning of the cut line', async () => {
    const dir = tempDir();
    const path = await headerThen(dir, 'crashed.jsonl', [`{"recvTs":${T0},"source":"mark`], true);
    const { warnings } = await backtest([path]);
    expect(warnings).toContainEqual(expect.stringMatching(/skipped its truncated last line/));
  });
});

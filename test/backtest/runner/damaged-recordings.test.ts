import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { resultToJson, SPILL_STALE_AFTER_MS } from '../../../backtest/report/index.ts';
import { eventCachePaths, runBacktest } from '../../../backtest/runner/index.ts';
import { decodeSessionRecord } from '../../../config/session-decoder.ts';
import { barOpensSeenBy } from '../../kit/bar-opens-seen.ts';
import { flatBarsRecordingIn } from '../../kit/bar-recordings.ts';
import { barRunOptions } from '../../kit/bar-run-options.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2024, 0, 1);
const MIN = 60_000;
const BARS = 12;
const tempDir = tempDirsRemovedAfterEach('keel-damaged-recordings-');

/** Twelve 1m bars with `bad` inserted after the fifth bar, as line 7 of the file. */
async function recordingWithBadLine(dir: string, bad: string): Promise<string> {
  const path = await flatBarsRecordingIn(dir, BARS, T0, BTC);
  const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
  lines.splice(6, 0, bad);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

async function replay(path: string, cached: boolean, listed = 1) {
  const seen: number[] = [];
  const told: string[] = [];
  const result = await runBacktest({
    ...barRunOptions(
      path,
      [anInstrument(BTC)],
      [{ id: 's', strategy: barOpensSeenBy(seen, BTC, T0), params: {} }],
    ),
    recordings: Array.from({ length: listed }, () => path),
    decode: decodeSessionRecord,
    onRecordingDamage: (warning) => told.push(warning.message),
    ...(cached ? { eventCache: { decoderId: 'damaged-test-v1' } } : {}),
  });
  const json = resultToJson(result);
  result.dispose?.();
  return { seen, told, warnings: result.meta.warnings ?? [], json };
}

const EVERY_BAR = Array.from({ length: BARS }, (_, i) => i);

const BAD_LINES: readonly { readonly what: string; readonly line: string; readonly says: RegExp }[] = [
  {
    what: 'a line that is not JSON',
    line: '{"recvTs": 1, "source": "market-data", "msg": {',
    says: /skipped 1 line \(not JSON\) at .*bars\.jsonl:7: is not JSON/,
  },
  {
    what: 'a JSON array',
    line: '[1,2,3]',
    says: /skipped 1 line \(not a \{recvTs, source, msg\} record\) at .*bars\.jsonl:7: recvTs must be/,
  },
  {
    what: 'a record of an unknown source',
    line: `{"recvTs":${T0 + 5 * MIN},"source":"gossip","msg":{}}`,
    says: /bars\.jsonl:7: source must be "market-data" or "private"/,
  },
  {
    what: 'a market-data message of a channel Keel does not decode',
    line: `{"recvTs":${T0 + 5 * MIN},"source":"market-data","msg":{"arg":{"channel":"WEIRD","sym":"${BTC}"},"data":{}}}`,
    says: /skipped 1 line \(a message Keel does not decode\) at .*bars\.jsonl:7: message could not be decoded/,
  },
];

describe('backtest of a recording with a damaged line', () => {
  for (const bad of BAD_LINES) {
    it(`skips ${bad.what}, replays every event after it and says so in meta.warnings, cached or not`, async () => {
      const path = await recordingWithBadLine(tempDir(), bad.line);
      const fresh = await replay(path, true);
      expect(fresh.seen).toEqual(EVERY_BAR);
      expect(fresh.warnings).toHaveLength(1);
      expect(fresh.warnings[0]).toMatch(bad.says);
      expect(fresh.warnings[0]).toContain('the run went on without its data');
      // Told once, with the place, as it was met.
      expect(fresh.told).toEqual([expect.stringMatching(/bars\.jsonl:7: skipped a malformed line: /)]);
      expect(existsSync(eventCachePaths(path).data)).toBe(true);
      const fromCache = await replay(path, true);
      expect(fromCache.seen).toEqual(EVERY_BAR);
      expect(fromCache.warnings).toEqual(fresh.warnings);
      expect(fromCache.told).toHaveLength(1);
      expect(fromCache.json).toBe(fresh.json);
    }, 30_000);
  }

  it('replays every event and warns of nothing for a User Data frame of an unknown channel: User Data is not replayed', async () => {
    const weird = `{"recvTs":${T0 + 5 * MIN},"source":"private","msg":{"channel":"weird_channel","data":{}}}`;
    const path = await recordingWithBadLine(tempDir(), weird);
    const fresh = await replay(path, true);
    expect(fresh.seen).toEqual(EVERY_BAR);
    expect(fresh.warnings).toEqual([]);
    expect(fresh.told).toEqual([]);
    const fromCache = await replay(path, true);
    expect(fromCache.seen).toEqual(EVERY_BAR);
    expect(fromCache.json).toBe(fresh.json);
  }, 30_000);

  it('counts and tells the damage of a recording listed twice once, cache cold or warm', async () => {
    const path = await recordingWithBadLine(tempDir(), BAD_LINES[0]?.line as string);
    const once = await replay(path, false);
    const damageOf = (warnings: readonly string[]) => warnings.filter((w) => w.includes('skipped'));
    expect(damageOf(once.warnings)).toEqual([expect.stringMatching(/skipped 1 line \(not JSON\) at /)]);
    for (const round of ['cold', 'warm']) {
      const twice = await replay(path, true, 2);
      expect({ round, seen: twice.seen }).toEqual({ round, seen: EVERY_BAR });
      expect({ round, damage: damageOf(twice.warnings) }).toEqual({ round, damage: damageOf(once.warnings) });
      // Told once; from the cache in the cache's words (`skipped:`), as a run of the file listed once.
      expect({ round, told: twice.told.length }).toEqual({ round, told: 1 });
    }
    expect(existsSync(eventCachePaths(path).data)).toBe(true);
  }, 30_000);

  it('counts many bad lines of one kind in one warning and tells only the first', async () => {
    const dir = tempDir();
    const path = await flatBarsRecordingIn(dir, BARS, T0, BTC);
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    const [header, ...records] = lines;
    writeFileSync(path, `${[header, ...records.flatMap((line) => [line, 'garbage'])].join('\n')}\n`);
    const run = await replay(path, false);
    expect(run.seen).toEqual(EVERY_BAR);
    expect(run.told).toHaveLength(1);
    expect(run.warnings).toEqual([
      expect.stringMatching(/skipped 12 lines \(not JSON\), the first at .*bars\.jsonl:3: /),
    ]);
  }, 30_000);

  it('says a gzip recording ends in damaged data, from the file and from its event cache', async () => {
    const dir = tempDir();
    const plain = await flatBarsRecordingIn(dir, BARS, T0, BTC);
    const gz = join(dir, 'cut.jsonl.gz');
    const whole = gzipSync(readFileSync(plain));
    await writeFile(gz, whole.subarray(0, Math.floor(whole.length * 0.8)));
    const fresh = await replay(gz, true);
    expect(fresh.seen.length).toBeGreaterThan(0);
    expect(fresh.seen.length).toBeLessThan(BARS);
    expect(fresh.warnings).toEqual([
      expect.stringMatching(
        /recording .*cut\.jsonl\.gz: the compressed data ends damaged at .*cut\.jsonl\.gz:\d+ \(.*\): the run replayed the lines before it and nothing after/,
      ),
    ]);
    expect(existsSync(eventCachePaths(gz).data)).toBe(true);
    const fromCache = await replay(gz, true);
    expect(fromCache.seen).toEqual(fresh.seen);
    expect(fromCache.warnings).toEqual(fresh.warnings);
  }, 30_000);

  it('keeps a clean recording warning-free, its cache meta without skipped lines', async () => {
    const path = await flatBarsRecordingIn(tempDir(), BARS, T0, BTC);
    const run = await replay(path, true);
    expect(run.warnings).toEqual([]);
    expect(run.told).toEqual([]);
    const meta = JSON.parse(await readFile(eventCachePaths(path).meta, 'utf8')) as Record<string, unknown>;
    expect(Object.keys(meta)).toEqual([
      'format',
      'decoderId',
      'source',
      'syms',
      'intervals',
      'chunks',
      'bytes',
      'lastRecvTs',
      'mac',
    ]);
  }, 30_000);
});

describe('event cache partial files', () => {
  it('removes the partial files a dead process left, and keeps those of a running one and those written lately', async () => {
    const dir = tempDir();
    const path = await flatBarsRecordingIn(dir, BARS, T0, BTC);
    const data = eventCachePaths(path).data;
    // A pid far above any pid_max is no running process here.
    const dead = `${data}.2147483646-1.partial`;
    const running = `${data}.${process.ppid}-1.partial`;
    // A pid that runs nothing here, written a moment ago: another container may be building it.
    const elsewhere = `${data}.2147483645-1.partial`;
    writeFileSync(dead, 'half a cache');
    const longAgo = (Date.now() - SPILL_STALE_AFTER_MS - 60_000) / 1000;
    utimesSync(dead, longAgo, longAgo);
    writeFileSync(running, 'being written');
    writeFileSync(elsewhere, 'being written in another container');
    await replay(path, true);
    const left = (await readdir(dir)).filter((name) => name.endsWith('.partial')).sort();
    expect(left).toEqual([elsewhere, running].map((file) => file.slice(dir.length + 1)).sort());
  }, 30_000);
});

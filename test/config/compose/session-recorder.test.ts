import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readRecords } from '../../../backtest/recording/index.ts';
import { DOWN_AT_STOP_REASON, SessionRecorder } from '../../../config/compose/session-recorder.ts';
import { modeOf, POSIX_MODES } from '../../kit/file-modes.ts';
import { fsSyncWatchedPerTest } from '../../kit/fs-sync-watch.ts';

const HEADER = { venue: 'test', symbols: ['BTC'], startTime: 0, synthetic: true };

async function framesIn(path: string): Promise<unknown[]> {
  const frames: unknown[] = [];
  for await (const record of readRecords(path)) frames.push(record.msg);
  return frames;
}

const watchSyncAndClose = fsSyncWatchedPerTest();

describe('session recorder', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'keel-recorder-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it.each(['s.jsonl', 's.jsonl.gz'])(
    'writes buffered frames on its timer, before any close (%s): a killed process keeps them',
    async (name) => {
      const path = join(dir, name);
      const recorder = await SessionRecorder.open(path, HEADER, () => 5, { flushEveryMs: 10 });
      recorder.tap({ source: 'market', recvTs: 0, text: '{"n":1}' });
      recorder.tap({ source: 'private', recvTs: 0, text: 'pong' });
      await vi.waitFor(async () => expect(await framesIn(path)).toEqual([{ n: 1 }, 'pong']), {
        timeout: 5_000,
      });
      recorder.close();
      recorder.close();
      expect(await framesIn(path)).toEqual([{ n: 1 }, 'pong']);
    },
  );

  it('keeps the recording an earlier session left at the same path', async () => {
    const path = join(dir, 'paper-session.jsonl');
    const first = await SessionRecorder.open(path, HEADER, () => 1);
    first.tap({ source: 'market', recvTs: 0, text: '{"run":1}' });
    first.close();
    expect(first.keptPrevious).toBeUndefined();
    const second = await SessionRecorder.open(path, HEADER, () => 2);
    second.tap({ source: 'market', recvTs: 0, text: '{"run":2}' });
    second.close();
    expect(second.keptPrevious).toMatch(/paper-session\.\d{8}T\d{6}Z\.jsonl$/);
    expect(readdirSync(dir)).toHaveLength(2);
    expect(await framesIn(second.keptPrevious as string)).toEqual([{ run: 1 }]);
    expect(await framesIn(path)).toEqual([{ run: 2 }]);
  });

  it('leaves REST replies out', async () => {
    const path = join(dir, 'r.jsonl');
    const recorder = await SessionRecorder.open(path, HEADER, () => 1);
    recorder.tap({ source: 'rest', method: 'GET', path: '/x', status: 200, body: '{"secret":1}', recvTs: 0 });
    recorder.tap({ source: 'market', recvTs: 0, text: '{"ok":1}' });
    recorder.close();
    expect(recorder.recorded).toBe(1);
    expect(await framesIn(path)).toEqual([{ ok: 1 }]);
  });

  it('survives a full disk: its timer never throws, the failure is told once and warned of, nothing more is buffered', async () => {
    const path = join(dir, 's.jsonl');
    const told: string[] = [];
    const recorder = await SessionRecorder.open(path, HEADER, () => Date.UTC(2026, 0, 2), {
      flushEveryMs: 10,
      onFailure: (message) => told.push(message),
    });
    // Room for 4 KiB only: a file-size limit fails write(2) as a full disk does.
    execFileSync('prlimit', ['--pid', String(process.pid), '--fsize=4096:unlimited']);
    try {
      const frame = JSON.stringify({ pad: 'x'.repeat(1_000) });
      for (let i = 0; i < 10; i++) recorder.tap({ source: 'market', recvTs: 0, text: frame });
      await vi.waitFor(() => expect(told).toHaveLength(1), { timeout: 5_000 });
      for (let i = 0; i < 5; i++) recorder.tap({ source: 'market', recvTs: 0, text: frame });
      recorder.gap({ kind: 'gap', sym: 'BTC', reason: 'reconnect', ts: 0, recvTs: 0, fromTs: 0 });
      await new Promise((r) => setTimeout(r, 50));
      recorder.close();
    } finally {
      execFileSync('prlimit', ['--pid', String(process.pid), '--fsize=unlimited:unlimited']);
    }
    expect(told[0]).toContain('s.jsonl');
    expect(told[0]).toContain('the session goes on unrecorded');
    // What is written, not what was buffered: the file holds no fewer whole frames than counted.
    expect(recorder.recorded).toBeLessThan(10);
    expect(recorder.dropped).toBe(6);
    expect(recorder.warnings()).toEqual([
      expect.stringMatching(
        /recording .*s\.jsonl is incomplete: writing it failed at 2026-01-02T00:00:00\.000Z \(.*\); the 6 frames received after that/,
      ),
    ]);
    // What was written before the failure stays readable (the torn last line skipped).
    const kept = await framesIn(path);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(10);
    expect(recorder.recorded).toBeLessThanOrEqual(kept.length);
  });

  // keel record stops when its recording cannot be written: "the session goes on unrecorded" was wrong there.
  it('ends the failure with what the run does then, as its caller says', async () => {
    const path = join(dir, 's.jsonl');
    const told: string[] = [];
    const recorder = await SessionRecorder.open(path, HEADER, () => 1, {
      onFailure: (message) => told.push(message),
      afterFailure: 'keel record stops',
    });
    recorder.tap({ source: 'market', recvTs: 0, text: '{"ok":1}' });
    watchSyncAndClose(true);
    recorder.close();
    expect(told).toEqual([expect.stringMatching(/: it stops here, keel record stops$/)]);
  });

  // It counted frames as they were buffered: a full disk left fewer in the file than reported.
  it('counts a frame as recorded once it is written, and every frame once closed', async () => {
    const path = join(dir, 's.jsonl');
    const recorder = await SessionRecorder.open(path, HEADER, () => 1, { flushEveryMs: 60_000 });
    recorder.tap({ source: 'market', recvTs: 0, text: '{"n":1}' });
    recorder.tap({ source: 'private', recvTs: 0, text: 'pong' });
    expect(recorder.recorded).toBe(0);
    recorder.close();
    expect(recorder.recorded).toBe(2);
  });

  // Gaps came only with a reconnect: a stream still down at the stop left the hole unmarked.
  it('writes a gap per sym from the last frame to the stop when the market stream is down as it closes, and warns', async () => {
    const path = join(dir, 's.jsonl');
    let now = Date.UTC(2026, 0, 2);
    const header = { ...HEADER, symbols: ['BTC', 'ETH'] };
    const recorder = await SessionRecorder.open(path, header, () => now);
    recorder.tap({ source: 'market', recvTs: 0, text: '{"n":1}' });
    now += 1_000;
    recorder.marketStream('down');
    now += 4_000;
    recorder.close();
    const gaps = [];
    for await (const record of readRecords(path)) {
      const gap = (record.msg as { keelGap?: unknown }).keelGap;
      if (gap !== undefined) gaps.push({ recvTs: record.recvTs, gap });
    }
    const from = Date.UTC(2026, 0, 2);
    expect(gaps).toEqual(
      ['BTC', 'ETH'].map((sym) => ({
        recvTs: from + 5_000,
        gap: { sym, fromTs: from, ts: from + 5_000, reason: DOWN_AT_STOP_REASON },
      })),
    );
    expect(recorder.warnings()).toEqual([
      expect.stringMatching(
        /^market data down from 2026-01-02T00:00:00\.000Z until the stop at 2026-01-02T00:00:05\.000Z \(5 s\)/,
      ),
    ]);
  });

  it('writes no gap at the stop when the market stream came back', async () => {
    const path = join(dir, 's.jsonl');
    const recorder = await SessionRecorder.open(path, HEADER, () => 1);
    recorder.marketStream('down');
    recorder.marketStream('up');
    recorder.close();
    expect(await framesIn(path)).toEqual([]);
    expect(recorder.warnings()).toEqual([]);
  });

  it('tells a recording that cannot be synced to disk at its close, and warns that it may be incomplete', async () => {
    const path = join(dir, 's.jsonl');
    const told: string[] = [];
    const recorder = await SessionRecorder.open(path, HEADER, () => Date.UTC(2026, 0, 2), {
      onFailure: (message) => told.push(message),
    });
    recorder.tap({ source: 'market', recvTs: 0, text: '{"ok":1}' });
    const calls = watchSyncAndClose(true);
    recorder.close();
    expect(calls.map((c) => c.split(' ')[0])).toEqual(['sync', 'close']);
    expect(told).toEqual([
      expect.stringMatching(/cannot write the recording .*s\.jsonl \(EIO: i\/o error, fsync\)/),
    ]);
    expect(recorder.warnings()).toEqual([
      expect.stringContaining('is incomplete: writing it failed at 2026-01-02'),
    ]);
  });

  // A session's recording (and keel record's) went out 0644, in folders 0755.
  it.skipIf(!POSIX_MODES)('writes its recording 0600, in the folders it creates 0700', async () => {
    const path = join(dir, 'out', 'sessions', 's.jsonl.gz');
    const recorder = await SessionRecorder.open(path, HEADER, () => 1);
    recorder.close();
    expect([join(dir, 'out'), join(dir, 'out', 'sessions'), path].map(modeOf)).toEqual(['700', '700', '600']);
  });
});

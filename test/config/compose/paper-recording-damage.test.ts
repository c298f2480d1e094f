import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { barsRecordingIn } from '../../kit/bar-recordings.ts';
import { embeddedPaperVenues } from '../../kit/embedded-paper-runs.ts';
import { keelChild } from '../../kit/keel-child-process.ts';
import { bboPush } from '../../kit/paper-venue-client.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2025, 2, 3);
const MIN = 60_000;
const tempDir = tempDirsRemovedAfterEach('keel-paper-damage-');
const startVenue = embeddedPaperVenues();
const BARS = Array.from({ length: 30 }, (_, i) => [100 + i, 101 + i, 99 + i, 100.5 + i]);
const NOT_JSON = '{"recvTs": 1, "source": "market-data", "msg": {';

/** A quote, then 30 1m bars, with `bad` inserted after the `at`-th bar; returns the recording's path. */
async function recordingWithBadLine(dir: string, bad: string, at: number): Promise<string> {
  const bars = await barsRecordingIn(dir, BARS, T0, BTC);
  const [header, ...rest] = readFileSync(bars, 'utf8').trimEnd().split('\n');
  const quote = bboPush(BTC, '100.0', '100.1', T0 + 1); // the preview stops here, before the bad line
  const first = JSON.stringify({ recvTs: quote.recvTs, source: 'market-data', msg: quote.msg });
  rest.splice(at, 0, bad);
  writeFileSync(bars, `${[header, first, ...rest].join('\n')}\n`);
  return bars;
}

describe('a paper run whose recording source has a corrupt line', () => {
  it('runs to the end of the recording and says which line it skipped', async () => {
    const dir = tempDir();
    const bars = await recordingWithBadLine(dir, NOT_JSON, 15);
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    writeFileSync(
      join(dir, 'paper.yaml'),
      `mode: paper\ninstruments: [${BTC}]\nstrategies:\n  - { id: s, use: sma-cross, params: { sym: ${BTC}, fast: 2, slow: 3 } }\npaper:\n  lockstep: true\n  speed: 1000000\n  source: { kind: recording, path: ${bars} }\nreport: { html: out/paper.html, json: out/paper.json }\nlogging: { level: warn }\n`,
    );
    const run = keelChild(['run', 'paper.yaml'], { cwd: dir });
    const said = `exit ${run.code}\n${run.stdout}\n${run.stderr}`;
    expect(run.code, said).toBe(0);
    const result = JSON.parse(readFileSync(join(dir, 'out/paper.json'), 'utf8')) as {
      meta: { warnings: string[] };
      equityCurve: { ts: number }[];
    };
    // The last bar closes at T0 + 30 min: the session saw every event after the bad line.
    expect(result.equityCurve.at(-1)?.ts).toBe(T0 + 30 * MIN);
    const warning = `recording ${bars}: skipped 1 line (not JSON) at ${bars}:18: is not JSON`;
    expect(result.meta.warnings).toEqual([expect.stringContaining(warning)]);
    expect(run.stdout).toContain(`⚠ ${warning}`);
    // Logged once, as pino JSON like the rest of the log.
    const logged = run.stderr
      .split('\n')
      .filter((line) => line.includes('skipped a recording line'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged).toEqual([expect.objectContaining({ recording: bars, line: 18, kind: 'not-json' })]);
  }, 60_000);

  it('starts when the bad line is among the first events it previews, and counts it once', async () => {
    const dir = tempDir();
    const bars = await recordingWithBadLine(dir, '[1,2,3]', 0);
    const run = await startVenue(
      `mode: paper\ninstruments: [${BTC}]\nstrategies:\n  - { id: s, use: sma-cross, params: { sym: ${BTC}, fast: 2, slow: 3 } }\npaper:\n  lockstep: true\n  source: { kind: recording, path: ${bars} }\n`,
    );
    expect(run.firstEventTime).toBe(T0 + 1);
    expect(run.sourceWarnings()).toEqual([
      expect.stringContaining(
        `recording ${bars}: skipped 1 line (not a {recvTs, source, msg} record) at ${bars}:3:`,
      ),
    ]);
  }, 30_000);
});

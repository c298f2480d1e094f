import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  outputCollision,
  recordInputFiles,
  runInputFiles,
} from '../../../config/compose/output-collisions.ts';
import { loadValidConfig } from '../../../config/loader/index.ts';
import { keelInProcess } from '../../kit/keel-in-process.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const tempDir = tempDirsRemovedAfterEach('keel-record-overwrite-');
const SESSION = 'backtest/sessions/example-synthetic.jsonl.gz';

/** A paper config replaying a copy of the example session (`feed.jsonl.gz`), with `extra` appended. */
function paperConfigIn(dir: string, extra = ''): { config: string; feed: string } {
  const feed = join(dir, 'feed.jsonl.gz');
  copyFileSync(SESSION, feed);
  const config = join(dir, 'paper.yaml');
  writeFileSync(
    config,
    `mode: paper
instruments: [BINANCE_PERP_BTC_USDT]
strategies:
  - { id: mm, use: market-maker, params: { sym: BINANCE_PERP_BTC_USDT, qty: 0.01, halfSpreadTicks: 30, skewTicksPerUnit: 200, maxPosition: 0.05, requoteTicks: 40 } }
paper:
  source: { kind: recording, path: ${feed} }
${extra}`,
  );
  return { config, feed };
}

/** The files of a directory: a refused run moved none aside and wrote none. */
const filesOf = (dir: string) => readdirSync(dir).sort();

// `keel record` wrote its recording wherever it was told: over the recording its paper venue was
// replaying (moved aside under the venue as it read it), or over the config it was started with.
describe('keel record, told to write its recording over one of its inputs', () => {
  it('--out naming the recording the paper venue replays: exit 2 before it starts, the recording intact', async () => {
    const dir = tempDir();
    const { config, feed } = paperConfigIn(dir);
    const before = readFileSync(feed);
    const files = filesOf(dir);
    const run = await keelInProcess(['record', config, '--out', feed, '--duration', '1']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`✖ keel record: --out ${feed} is the same file as the recording ${feed}`);
    expect(readFileSync(feed).equals(before), 'the replayed recording changed').toBe(true);
    expect(filesOf(dir)).toEqual(files);
  }, 60_000);

  it('--out naming the config: refused, the config where it was and intact', async () => {
    const dir = tempDir();
    const { config } = paperConfigIn(dir);
    const text = readFileSync(config, 'utf8');
    const files = filesOf(dir);
    const run = await keelInProcess(['record', config, '--out', config, '--duration', '1']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--out ${config} is the same file as the config ${config}`);
    expect(readFileSync(config, 'utf8')).toBe(text);
    expect(filesOf(dir)).toEqual(files);
  }, 60_000);

  it("the config's recording.path naming the replayed recording: refused as well", async () => {
    const dir = tempDir();
    const feed = join(dir, 'feed.jsonl.gz');
    const { config } = paperConfigIn(dir, `recording: { path: ${feed} }\n`);
    const before = readFileSync(feed);
    const run = await keelInProcess(['record', config, '--duration', '1']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`recording.path ${feed} is the same file as the recording ${feed}`);
    expect(readFileSync(feed).equals(before)).toBe(true);
  }, 60_000);
});

// The same check of `keel run` (live and paper sessions) had no test of its own.
describe('keel run, its recording.path or report naming one of its inputs', () => {
  it("recording.path naming the paper venue's replayed recording: exit 2 before it starts, the recording intact", async () => {
    const dir = tempDir();
    const feed = join(dir, 'feed.jsonl.gz');
    const { config } = paperConfigIn(dir, `recording: { path: ${feed} }\n`);
    const before = readFileSync(feed);
    const files = filesOf(dir);
    const run = await keelInProcess(['run', config, '--duration', '1']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`recording.path ${feed} is the same file as the recording ${feed}`);
    expect(readFileSync(feed).equals(before), 'the replayed recording changed').toBe(true);
    expect(filesOf(dir)).toEqual(files);
  }, 60_000);

  it('report.html naming the config: refused, the config intact', async () => {
    const dir = tempDir();
    const { config } = paperConfigIn(
      dir,
      `report: { html: ${join(dir, 'paper.yaml')}, json: ${join(dir, 'r.json')} }\n`,
    );
    const text = readFileSync(config, 'utf8');
    const run = await keelInProcess(['run', config, '--duration', '1']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`report.html ${config} is the same file as the config ${config}`);
    expect(readFileSync(config, 'utf8')).toBe(text);
  }, 60_000);
});

describe("keel record's inputs", () => {
  it("leave out the config's warm-up history files: a recording may go where a session warms up from", async () => {
    const dir = tempDir();
    const history = join(dir, 'history.jsonl');
    const { config } = paperConfigIn(dir, `warmUp: { period: 3m, history: [${history}] }\n`);
    copyFileSync(SESSION, history);
    const loaded = loadValidConfig(config);
    expect(outputCollision([{ what: '--out', path: history }], recordInputFiles(loaded))).toBeUndefined();
    expect(outputCollision([{ what: '--out', path: history }], runInputFiles(loaded))).toMatch(
      /is the same file as the warm-up history file/,
    );
  });
});

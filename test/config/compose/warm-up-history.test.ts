import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RecordingDamage } from '../../../backtest/recording/index.ts';
import { missingRecordingProblems } from '../../../config/compose/recording-problems.ts';
import { warmUpHistorySymWarnings } from '../../../config/compose/recording-sym-warnings.ts';
import { warmUpCoverageWarning, warmUpOf } from '../../../config/compose/warm-up-history.ts';
import { formatConfigProblem, loadValidConfig } from '../../../config/loader/index.ts';
import type { MarketEvent } from '../../../core/model/index.ts';
import { quoteRecordAt, writeRecording } from '../../kit/recording-files.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const aTempDir = tempDirsRemovedAfterAll('keel-warm-up-files-');
const T0 = Date.UTC(2025, 0, 6, 14, 30);
const MIN = 60_000;
const BTC = 'BINANCE_PERP_BTC_USDT';

function paperConfigIn(dir: string, history: string): string {
  const file = join(dir, 'paper.yaml');
  writeFileSync(
    file,
    `mode: paper
paper: { lockstep: true }
instruments: [BINANCE_PERP_BTC_USDT]
strategies:
  - { id: mm, use: market-maker }
warmUp:
  period: 3m
  history:
${history}`,
  );
  return file;
}

async function eventsOf(file: string): Promise<MarketEvent[]> {
  const warmUp = await warmUpOf(loadValidConfig(file));
  const events: MarketEvent[] = [];
  for await (const batch of warmUp?.history ?? []) events.push(...batch);
  return events;
}

describe('warm-up history of paper and live runs', () => {
  it('reads an OHLCV CSV as closed bars received at their close, merged with a recording by receive time', async () => {
    const dir = aTempDir();
    writeFileSync(
      join(dir, 'btc.csv'),
      ['time,open,high,low,close,volume', ...[0, 1, 2].map((m) => `${T0 + m * MIN},100,101,99,100.5,7`)].join(
        '\n',
      ),
    );
    // quoteRecordAt stamps its quote at the test header's start time plus dt.
    await writeRecording(join(dir, 'quotes.jsonl'), [quoteRecordAt(0, '99', '101')]);
    const file = paperConfigIn(
      dir,
      '    - { csv: btc.csv, sym: BINANCE_PERP_BTC_USDT }\n    - quotes.jsonl\n',
    );
    const events = await eventsOf(file);
    const bars = events.filter((e) => e.kind === 'bar');
    expect(bars.map((b) => [b.interval, b.openTime, b.recvTs, b.close])).toEqual([
      ['1m', T0, T0 + MIN, 100.5],
      ['1m', T0 + MIN, T0 + 2 * MIN, 100.5],
      ['1m', T0 + 2 * MIN, T0 + 3 * MIN, 100.5],
    ]);
    const times = events.map((e) => e.recvTs);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(events.some((e) => e.kind === 'quote')).toBe(true);
  });

  it('skips a recording line it cannot read, reads on to the end and counts it', async () => {
    const dir = aTempDir();
    const path = join(dir, 'quotes.jsonl');
    await writeRecording(path, [quoteRecordAt(0, '99', '101'), quoteRecordAt(MIN, '100', '102')]);
    const [header, ...records] = readFileSync(path, 'utf8').trimEnd().split('\n');
    writeFileSync(path, `${[header, records[0], 'not json', records[1]].join('\n')}\n`);
    const damage = new RecordingDamage();
    const warmUp = await warmUpOf(loadValidConfig(paperConfigIn(dir, '    - quotes.jsonl\n')), damage);
    const events: MarketEvent[] = [];
    for await (const batch of warmUp?.history ?? []) events.push(...batch);
    expect(events.map((e) => e.kind)).toEqual(['quote', 'quote']);
    expect(damage.warnings()).toEqual([
      expect.stringContaining(`recording ${path}: skipped 1 line (not JSON) at ${path}:3:`),
    ]);
  });

  it('replays once the events a history file repeats of another, and says so once read', async () => {
    const dir = aTempDir();
    await writeRecording(join(dir, 'quotes.jsonl'), [
      quoteRecordAt(0, '99', '101'),
      quoteRecordAt(MIN, '100', '102'),
    ]);
    const warnings: string[] = [];
    const config = loadValidConfig(paperConfigIn(dir, '    - quotes.jsonl\n    - quotes.jsonl\n'));
    const warmUp = await warmUpOf(config, new RecordingDamage(), (message) => warnings.push(message));
    const events: MarketEvent[] = [];
    for await (const batch of warmUp?.history ?? []) events.push(...batch);
    expect(events.map((e) => e.kind)).toEqual(['quote', 'quote']);
    expect(warnings).toEqual([
      expect.stringMatching(
        /^warm-up: recording quotes\.jsonl is listed more than once \(received .*\): 2 events of quotes\.jsonl repeating quotes\.jsonl's were dropped, so each is replayed once$/,
      ),
    ]);
  });

  it('warns, before any run, of history that names none of the instruments', async () => {
    const dir = aTempDir();
    writeFileSync(join(dir, 'h.csv'), `time,open,high,low,close,volume\n${T0},100,101,99,100.5,7\n`);
    // The test recording holds BTC.
    await writeRecording(join(dir, 'quotes.jsonl'), [quoteRecordAt(0, '99', '101')]);
    const typo = paperConfigIn(dir, `    - { csv: h.csv, sym: ${BTC}X }\n`);
    expect(await warmUpHistorySymWarnings(loadValidConfig(typo))).toEqual([
      `warmUp.history[0] is for ${BTC}X, which is not one of the instruments: nothing warms up on it`,
      `warmUp.history holds none of the instruments (${BTC}; it holds ${BTC}X): the strategies start cold`,
    ]);
    const good = paperConfigIn(dir, `    - { csv: h.csv, sym: ${BTC} }\n    - quotes.jsonl\n`);
    expect(await warmUpHistorySymWarnings(loadValidConfig(good))).toEqual([]);
  });

  it('names the key, the file and the line of a CSV it cannot read', async () => {
    const dir = aTempDir();
    writeFileSync(
      join(dir, 'bad.csv'),
      'time,open,high,low,close,volume\n2025-01-06T14:30:00Z,100,oops,99,100,1\n',
    );
    const file = paperConfigIn(dir, '    - { csv: bad.csv, sym: BINANCE_PERP_BTC_USDT }\n');
    await expect(warmUpOf(loadValidConfig(file))).rejects.toThrow(
      /paper\.yaml: warmUp\.history\[0\]: \/.*\/bad\.csv:2: high "oops" is not a non-negative number$/,
    );
  });

  it('locates history files that are not there at their line, for keel validate and keel run', () => {
    const dir = aTempDir();
    const file = paperConfigIn(
      dir,
      '    - gone.jsonl\n    - { csv: gone.csv, sym: BINANCE_PERP_BTC_USDT }\n',
    );
    expect(missingRecordingProblems(loadValidConfig(file)).map(formatConfigProblem)).toEqual([
      `✖ warmUp.history[0] names no such file: ${join(dir, 'gone.jsonl')} → at warmUp.history[0] (${file}:9:7)`,
      `✖ history[1].csv names no such file: ${join(dir, 'gone.csv')} → at warmUp.history[1].csv (${file}:10:14)`,
    ]);
  });

  it('says how much of the period a short history covered, or that it covered nothing', () => {
    const base = {
      from: T0,
      until: T0 + 20 * MIN,
      complete: false,
      reaches: false,
      uncovered: [],
      short: [],
      otherSyms: [],
    };
    expect(
      warmUpCoverageWarning({ ...base, events: 5, first: T0 + 15 * MIN, last: T0 + 20 * MIN }, 20 * MIN),
    ).toBe(
      'warm-up: the history covers only 5 min of the 20 min warm-up from 2025-01-06T14:30:00.000Z to 2025-01-06T14:50:00.000Z (5 events, 2025-01-06T14:45:00.000Z to 2025-01-06T14:50:00.000Z); indicators may not be ready when trading starts',
    );
    expect(
      warmUpCoverageWarning(
        { ...base, uncovered: [BTC], events: 0, first: undefined, last: undefined },
        20 * MIN,
      ),
    ).toBe(
      `warm-up: the history holds no event of the run's instruments (${BTC}) for the 20 min warm-up from 2025-01-06T14:30:00.000Z to 2025-01-06T14:50:00.000Z; the strategies start cold (check warmUp.history)`,
    );
    expect(
      warmUpCoverageWarning(
        { ...base, complete: true, reaches: true, events: 20, first: T0, last: T0 + 20 * MIN },
        20 * MIN,
      ),
    ).toBeUndefined();
  });

  it("says the history held only other syms than the run's, or nothing of one of its instruments", () => {
    const base = { from: T0, until: T0 + 20 * MIN, complete: false, short: [] };
    expect(
      warmUpCoverageWarning(
        {
          ...base,
          reaches: false,
          uncovered: [BTC],
          otherSyms: [`${BTC}X`],
          events: 0,
          first: undefined,
          last: undefined,
        },
        20 * MIN,
      ),
    ).toBe(
      `warm-up: the history holds no event of the run's instruments (${BTC}) for the 20 min warm-up from 2025-01-06T14:30:00.000Z to 2025-01-06T14:50:00.000Z (it holds ${BTC}X, not an instrument of the run); the strategies start cold (check warmUp.history)`,
    );
    expect(
      warmUpCoverageWarning(
        {
          ...base,
          reaches: true,
          uncovered: ['BINANCE_PERP_ETH_USDT'],
          otherSyms: [],
          events: 20,
          first: T0,
          last: T0 + 20 * MIN,
        },
        20 * MIN,
      ),
    ).toBe(
      'warm-up: the history holds no bar or trade of BINANCE_PERP_ETH_USDT for the 20 min warm-up from 2025-01-06T14:30:00.000Z to 2025-01-06T14:50:00.000Z; strategies on it start cold (check warmUp.history)',
    );
  });

  it('says which watched instrument has bars or trades that stop short of the period', () => {
    const short = warmUpCoverageWarning(
      {
        from: T0,
        until: T0 + 20 * MIN,
        complete: false,
        reaches: true,
        uncovered: [],
        short: ['BINANCE_PERP_ETH_USDT'],
        otherSyms: [],
        events: 23,
        first: T0,
        last: T0 + 20 * MIN,
      },
      20 * MIN,
    );
    expect(short).toBe(
      'warm-up: the bars and trades of BINANCE_PERP_ETH_USDT in the history do not reach over the 20 min warm-up from 2025-01-06T14:30:00.000Z to 2025-01-06T14:50:00.000Z; indicators on it may not be ready when trading starts',
    );
  });
});

describe('warm-up coverage warning for a watched interval the history cannot build', () => {
  it('names the instrument and interval: 1h history for a 5m watch', () => {
    const warning = warmUpCoverageWarning(
      {
        from: T0,
        until: T0 + 180 * MIN,
        complete: false,
        reaches: true,
        uncovered: [`${BTC} 5m`],
        short: [],
        otherSyms: [],
        events: 3,
        first: T0,
        last: T0 + 180 * MIN,
      },
      180 * MIN,
    );
    expect(warning).toBe(
      `warm-up: the history holds nothing that builds the bars of ${BTC} 5m (no trade, nor bar of that interval or a finer one dividing it: 1h bars build no 5m bar) for the 3 h warm-up from 2025-01-06T14:30:00.000Z to 2025-01-06T17:30:00.000Z; those bars start cold (give warmUp.history finer bars or trades)`,
    );
  });
});

import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { CsvImportError, importOhlcvCsv, klineMessage } from '../../../backtest/csv/index.ts';
import { RecordingWriter, readRecords, readSessionHeader } from '../../../backtest/recording/index.ts';
import type { BarEvent } from '../../../core/model/index.ts';
import { decodeMarketMessage, klineMapper } from '../../../core/venue/market-data/index.ts';
import { modeOf, POSIX_MODES } from '../../kit/file-modes.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const FIXTURES = join(import.meta.dirname, '../../fixtures/csv');
const anOutputDir = tempDirsRemovedAfterAll('keel-csv-');

describe('OHLCV CSV import into a recording', () => {
  it.skipIf(!POSIX_MODES)(
    'writes it 0600, in the folders it creates 0700, as every recording Keel writes',
    async () => {
      const dir = join(anOutputDir(), 'imports', 'btc');
      const output = join(dir, 'btc-1m.jsonl.gz');
      await importOhlcvCsv({ input: join(FIXTURES, 'binance-1m.csv'), output, sym: 'BINANCE_SPOT_BTC_USDT' });
      expect([join(dir, '..'), dir, output].map(modeOf)).toEqual(['700', '700', '600']);
    },
  );

  it('replaces the file a symbolic link at the output points to, keeping the link', async () => {
    const dir = anOutputDir();
    mkdirSync(join(dir, 'big'));
    mkdirSync(join(dir, 'data'));
    const real = join(dir, 'big', 'btc.jsonl.gz');
    writeFileSync(real, 'old');
    const link = join(dir, 'data', 'btc.jsonl.gz');
    symlinkSync(join('..', 'big', 'btc.jsonl.gz'), link);
    await importOhlcvCsv({
      input: join(FIXTURES, 'binance-1m.csv'),
      output: link,
      sym: 'BINANCE_SPOT_BTC_USDT',
    });
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect((await readSessionHeader(real)).venue).toBe('csv-import');
    expect(readdirSync(join(dir, 'big'))).toEqual(['btc.jsonl.gz']);
  });

  it('calls beforeReplace with the file a link at the output points to, once the recording is complete', async () => {
    const dir = anOutputDir();
    const real = join(dir, 'btc.jsonl.gz');
    writeFileSync(real, 'old');
    const link = join(dir, 'link.jsonl.gz');
    symlinkSync('btc.jsonl.gz', link);
    const seen: string[] = [];
    await importOhlcvCsv({
      input: join(FIXTURES, 'binance-1m.csv'),
      output: link,
      sym: 'BINANCE_SPOT_BTC_USDT',
      // Still the old file there: the complete recording waits beside it under its staged name.
      beforeReplace: (target) => seen.push(`${target} ${readFileSync(target, 'utf8')}`),
    });
    expect(seen).toEqual([`${realpathSync(real)} old`]);
    expect((await readSessionHeader(real)).venue).toBe('csv-import');
  });

  it('does not call beforeReplace when the CSV is not bars', async () => {
    const dir = anOutputDir();
    const input = join(dir, 'bad.csv');
    writeFileSync(input, 'time,open,high,low,close,volume\n1700000000000,1,2,0.5,oops,3\n');
    const beforeReplace = vi.fn();
    await expect(
      importOhlcvCsv({ input, output: join(dir, 'out.jsonl'), sym: 'BINANCE_SPOT_BTC_USDT', beforeReplace }),
    ).rejects.toBeInstanceOf(CsvImportError);
    expect(beforeReplace).not.toHaveBeenCalled();
  });

  it('leaves the old recording, not a shortened one, when the import stops half-way', async () => {
    const dir = anOutputDir();
    const output = join(dir, 'btc-1m.jsonl.gz');
    writeFileSync(output, 'the earlier import');
    let calls = 0;
    const original = RecordingWriter.prototype.append;
    const failing = vi.spyOn(RecordingWriter.prototype, 'append').mockImplementation(function (
      this: RecordingWriter,
      ...args: Parameters<RecordingWriter['append']>
    ) {
      calls += 1;
      if (calls === 3) throw new Error('killed');
      original.apply(this, args);
    });
    try {
      await expect(
        importOhlcvCsv({ input: join(FIXTURES, 'binance-1m.csv'), output, sym: 'BINANCE_SPOT_BTC_USDT' }),
      ).rejects.toThrow('killed');
    } finally {
      failing.mockRestore();
    }
    expect(readFileSync(output, 'utf8')).toBe('the earlier import');
    expect(readdirSync(dir)).toEqual(['btc-1m.jsonl.gz']);
    await importOhlcvCsv({ input: join(FIXTURES, 'binance-1m.csv'), output, sym: 'BINANCE_SPOT_BTC_USDT' });
    expect(existsSync(output) && readdirSync(dir)).toEqual(['btc-1m.jsonl.gz']);
    expect((await readSessionHeader(output)).venue).toBe('csv-import');
  });

  it('writes under a hidden staged name and removes what killed imports left for the output', async () => {
    const dir = anOutputDir();
    const output = join(dir, 'btc-1m.jsonl.gz');
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid as number;
    const leftByKilledImports = [
      `.btc-1m.jsonl.gz.${deadPid}.partial.jsonl.gz`,
      'btc-1m.jsonl.gz.partial.jsonl.gz',
    ];
    for (const name of leftByKilledImports) writeFileSync(join(dir, name), 'cut');
    let staged: string[] = [];
    const original = RecordingWriter.prototype.append;
    const watched = vi.spyOn(RecordingWriter.prototype, 'append').mockImplementation(function (
      this: RecordingWriter,
      ...args: Parameters<RecordingWriter['append']>
    ) {
      staged = readdirSync(dir);
      original.apply(this, args);
    });
    try {
      await importOhlcvCsv({ input: join(FIXTURES, 'binance-1m.csv'), output, sym: 'BINANCE_SPOT_BTC_USDT' });
    } finally {
      watched.mockRestore();
    }
    expect(staged).toEqual([`.btc-1m.jsonl.gz.${process.pid}.partial.jsonl.gz`]);
    expect(readdirSync(dir)).toEqual(['btc-1m.jsonl.gz']);
  });

  it('writes one closed KLINE push per bar, received at the bar close, that the venue decoder reads', async () => {
    const output = join(anOutputDir(), 'btc-1m.jsonl.gz');
    const summary = await importOhlcvCsv({
      input: join(FIXTURES, 'binance-1m.csv'),
      output,
      sym: 'BINANCE_SPOT_BTC_USDT',
    });
    const t0 = Date.UTC(2024, 0, 1);
    expect(summary).toMatchObject({
      bars: 3,
      interval: '1m',
      firstOpenTime: t0,
      lastCloseTime: t0 + 180_000,
    });

    const header = await readSessionHeader(output);
    expect(header).toMatchObject({ venue: 'csv-import', symbols: ['BINANCE_SPOT_BTC_USDT'], startTime: t0 });
    expect(header.synthetic).toBe(false);
    expect(header.description).toContain('binance-1m.csv');

    const events: BarEvent[] = [];
    for await (const record of readRecords(output)) {
      expect(record.source).toBe('market-data');
      expect(klineMapper.canHandle(record.msg)).toBe(true);
      const event = decodeMarketMessage(record.msg, record.recvTs);
      if (event === null || event instanceof Error) throw event ?? new Error('control message');
      events.push(event as BarEvent);
    }
    expect(events).toHaveLength(3);
    expect(events[0]).toEqual({
      kind: 'bar',
      sym: 'BINANCE_SPOT_BTC_USDT',
      ts: t0 + 60_000,
      recvTs: t0 + 60_000,
      interval: '1m',
      openTime: t0,
      open: 42283.58,
      high: 42298.62,
      low: 42261.02,
      close: 42298.61,
      volume: 35.92724,
      closed: true,
    });
    expect(events.map((e) => e.openTime)).toEqual([t0, t0 + 60_000, t0 + 120_000]);
  });

  it('imports daily equity bars in the exchange zone and reports the rows it skipped', async () => {
    const output = join(anOutputDir(), 'aapl.jsonl');
    const summary = await importOhlcvCsv({
      input: join(FIXTURES, 'yahoo-daily.csv'),
      output,
      sym: 'US_EQUITY_AAPL',
      zone: 'America/New_York',
    });
    expect(summary.bars).toBe(4);
    expect(summary.interval).toBe('1d');
    expect(summary.skipped).toEqual([{ line: 4, reason: 'no prices (empty or null row)' }]);
    const first = await readRecords(output).next();
    const bar = decodeMarketMessage(first.value!.msg, first.value!.recvTs) as BarEvent;
    expect(bar).toMatchObject({ interval: '1d', openTime: Date.UTC(2024, 0, 2, 5), close: 185.639999 });
  });

  it('writes the same bytes for the same CSV', async () => {
    const dir = anOutputDir();
    const options = { input: join(FIXTURES, 'metatrader-5m.csv'), sym: 'OKX_SPOT_ETH_USDT' };
    await importOhlcvCsv({ ...options, output: join(dir, 'a.jsonl') });
    await importOhlcvCsv({ ...options, output: join(dir, 'b.jsonl') });
    const { readFile } = await import('node:fs/promises');
    expect(await readFile(join(dir, 'a.jsonl'), 'utf8')).toBe(await readFile(join(dir, 'b.jsonl'), 'utf8'));
  });

  it('says which file cannot be read and refuses a sym Keel does not know', async () => {
    const output = join(anOutputDir(), 'x.jsonl');
    await expect(
      importOhlcvCsv({ input: '/no/such/file.csv', output, sym: 'OKX_SPOT_ETH_USDT' }),
    ).rejects.toThrow(CsvImportError);
    await expect(
      importOhlcvCsv({ input: join(FIXTURES, 'binance-1m.csv'), output, sym: 'BTCUSDT' }),
    ).rejects.toThrow(/sym "BTCUSDT"/);
  });

  it('imports a file in memory that does not grow with its size (80,000 bars under a 64 MB heap, which holding them needs ~100 MB of)', () => {
    const dir = anOutputDir();
    const input = join(dir, 'long.csv');
    const t0 = Date.UTC(2024, 0, 1);
    const rows = Array.from(
      { length: 80_000 },
      (_, i) => `${t0 + i * 60_000},42000.5,42010.25,41990.75,42001.5,${i % 97}.125`,
    );
    writeFileSync(input, `timestamp,open,high,low,close,volume\n${rows.join('\n')}\n`);
    const script = join(dir, 'import.mjs');
    writeFileSync(
      script,
      `const { importOhlcvCsv } = await import(${JSON.stringify(join(import.meta.dirname, '../../../backtest/csv/index.ts'))});
const summary = await importOhlcvCsv({ input: ${JSON.stringify(input)}, output: ${JSON.stringify(join(dir, 'long.jsonl.gz'))}, sym: 'BINANCE_SPOT_BTC_USDT' });
console.log(summary.bars);`,
    );
    const child = spawnSync(process.execPath, ['--max-old-space-size=64', '--import', 'tsx', script], {
      cwd: join(import.meta.dirname, '../../..'),
      encoding: 'utf8',
    });
    expect(child.stderr).not.toMatch(/heap out of memory/);
    expect({ status: child.status, stdout: child.stdout }).toEqual({ status: 0, stdout: '80000\n' });
  }, 180_000);

  it('builds KLINE messages whose ts is the bar close time', () => {
    const msg = klineMessage('OKX_PERP_BTC_USDT', '4h', {
      openTime: 0,
      open: '1',
      high: '2',
      low: '0.5',
      close: '1.5',
      volume: '3',
      line: 2,
    });
    expect(msg.data.ts).toBe(14_400_000);
    expect(decodeMarketMessage(msg, 14_400_000)).toMatchObject({ kind: 'bar', interval: '4h', close: 1.5 });
  });
});

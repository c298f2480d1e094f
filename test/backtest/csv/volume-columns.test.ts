import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { volumeAssetOf } from '../../../backtest/csv/column-layout.ts';
import { parseOhlcvCsv, readOhlcvCsvBars } from '../../../backtest/csv/index.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const aTempDir = tempDirsRemovedAfterAll('keel-csv-volume-');

/** A CryptoDataDownload export with these volume columns, written to a file. */
function cryptoDataDownload(volumes: string): string {
  const input = join(aTempDir(), 'cdd.csv');
  writeFileSync(
    input,
    [
      'https://www.CryptoDataDownload.com',
      `unix,date,symbol,open,high,low,close,${volumes},tradecount`,
      '1704081600000,2024-01-01 04:00:00,X,42000,42100,41900,42050,12.5,525000,1000',
      '1704078000000,2024-01-01 03:00:00,X,42000,42100,41900,42050,11.5,483000,900',
    ].join('\n'),
  );
  return input;
}

describe('volume columns', () => {
  it("reads CryptoDataDownload's base-asset volume (Volume BTC, not Volume USDT) after skipping its URL line", () => {
    const text = [
      'https://www.CryptoDataDownload.com',
      'unix,date,symbol,open,high,low,close,Volume BTC,Volume USDT,tradecount',
      '1704081600000,2024-01-01 04:00:00,BTC/USDT,42000,42100,41900,42050,12.5,525000,1000',
      '1704078000000,2024-01-01 03:00:00,BTC/USDT,42000,42100,41900,42050,11.5,483000,900',
    ].join('\n');
    const { bars, skipped, columns } = parseOhlcvCsv(text);
    expect(bars.map((b) => b.volume)).toEqual(['11.5', '12.5']);
    expect(skipped).toEqual([
      {
        line: 1,
        reason:
          'one field, no row of bars: a title or URL line before the header ("https://www.CryptoDataDownload.com")',
      },
    ]);
    expect(columns).toBe('time=date, open=open, high=high, low=low, close=close, volume=Volume BTC');
  });

  it("takes MetaTrader 5's <TICKVOL> when its <VOL> (real volume, 0 for forex) is 0 throughout, <VOL> when it is not", () => {
    const mt5 = (vol: string) =>
      [
        '<DATE>\t<TIME>\t<OPEN>\t<HIGH>\t<LOW>\t<CLOSE>\t<TICKVOL>\t<VOL>\t<SPREAD>',
        `2024.01.02\t00:00:00\t1.10000\t1.10500\t1.09500\t1.10200\t1234\t${vol}\t5`,
        `2024.01.02\t01:00:00\t1.10000\t1.10500\t1.09500\t1.10200\t2345\t0\t5`,
      ].join('\n');
    const forex = parseOhlcvCsv(mt5('0'));
    expect(forex.bars.map((b) => b.volume)).toEqual(['1234', '2345']);
    expect(forex.columns).toBe(
      'time=<DATE> <TIME>, open=<OPEN>, high=<HIGH>, low=<LOW>, close=<CLOSE>, volume=<TICKVOL> (<VOL> is 0 throughout)',
    );
    expect(forex.warnings).toEqual([]);
    expect(parseOhlcvCsv(mt5('7')).bars.map((b) => b.volume)).toEqual(['7', '0']);
  });

  it('says so when no column holds the volume, or the volume is 0 on every bar', () => {
    const none = parseOhlcvCsv('Date,Open,High,Low,Close\n2024-01-02,10,11,9,10\n2024-01-03,10,11,9,10\n');
    expect(none.columns).toBe('time=Date, open=Open, high=High, low=Low, close=Close, volume=<none → 0>');
    expect(none.warnings).toEqual([
      'no volume column (header "Date,Open,High,Low,Close"): every bar\'s volume is 0',
    ]);
    const zero = parseOhlcvCsv('0,10,11,9,10,0\n60000,10,11,9,10,0\n', { epochUnit: 'ms' });
    expect(zero.columns).toBe(
      'time=column 1, open=column 2, high=column 3, low=column 4, close=column 5, volume=column 6',
    );
    expect(zero.warnings).toEqual(['the volume (column 6) is 0 on every bar']);
  });

  it("reads the sym's base-asset volume wherever it stands, and warns of a volume in another asset than the sym's", async () => {
    const quoteFirst = await readOhlcvCsvBars({
      input: cryptoDataDownload('Volume USDT,Volume BTC'),
      sym: 'BINANCE_SPOT_BTC_USDT',
    });
    expect(quoteFirst.messages.map((m) => m.data.volume)).toEqual(['483000', '525000']);
    expect(quoteFirst.columns).toContain('volume=Volume BTC');
    expect(quoteFirst.warnings).toEqual([]);

    const otherPair = await readOhlcvCsvBars({
      input: cryptoDataDownload('Volume ETH,Volume USDT'),
      sym: 'BINANCE_SPOT_BTC_USDT',
    });
    expect(otherPair.columns).toContain('volume=Volume ETH');
    expect(otherPair.warnings).toEqual([
      `the volume is read from "Volume ETH", a volume in ETH, but the sym's base asset is BTC: is the file another pair's? Import each file with the sym of its pair (a volume in the quote asset counts money, not BTC traded)`,
    ]);
    const quoteOnly = await readOhlcvCsvBars({
      input: cryptoDataDownload('Volume USDT,Volume X'),
      sym: 'OKX_PERP_BTC_USDT',
    });
    expect(quoteOnly.warnings[0]).toMatch(
      /^the volume is read from "Volume USDT", a volume in USDT, but the sym's base asset is BTC/,
    );
    // A sym without a base asset (a US equity) checks nothing.
    expect(
      (await readOhlcvCsvBars({ input: cryptoDataDownload('Volume ETH,Volume USDT'), sym: 'US_EQUITY_SPY' }))
        .warnings,
    ).toEqual([]);
  });

  it('takes no word for a volume alone (German Volumen, Vol.) for a volume in an asset', async () => {
    expect(
      ['Volume', 'Volumen', 'Vol', 'Vol.', '<VOL>', 'Volumen (€)', 'volume_base', 'Stücke'].map(
        volumeAssetOf,
      ),
    ).toEqual(Array(8).fill(undefined));
    expect(
      ['Volume BTC', 'Volume USDT', 'VolumeBTC', 'Volume (BTC)', 'Volumen (BTC)', 'Vol. ETH'].map(
        volumeAssetOf,
      ),
    ).toEqual(['BTC', 'USDT', 'BTC', 'BTC', 'BTC', 'ETH']);

    const german = await readOhlcvCsvBars({
      input: cryptoDataDownload('Volumen,Umsatz'),
      sym: 'BINANCE_SPOT_BTC_USDT',
    });
    expect(german.columns).toContain('volume=Volumen');
    expect(german.warnings).toEqual([]);
    const inBase = await readOhlcvCsvBars({
      input: cryptoDataDownload('Volumen (USDT),Volumen (BTC)'),
      sym: 'BINANCE_SPOT_BTC_USDT',
    });
    expect(inBase.columns).toContain('volume=Volumen (BTC)');
    expect(inBase.warnings).toEqual([]);
    const otherPair = await readOhlcvCsvBars({
      input: cryptoDataDownload('Volumen (ETH),Volumen (USDT)'),
      sym: 'BINANCE_SPOT_BTC_USDT',
    });
    expect(otherPair.warnings[0]).toMatch(/^the volume is read from "Volumen \(ETH\)", a volume in ETH, but/);
  });
});

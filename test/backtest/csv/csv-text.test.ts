import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeCsvText } from '../../../backtest/csv/csv-text.ts';
import { readOhlcvCsvBars } from '../../../backtest/csv/index.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const aTempDir = tempDirsRemovedAfterAll('keel-csv-text-');

/** ariva's export: Windows-1252, a money turnover `Volumen` and the share count `Stücke`. */
const ARIVA = [
  'Datum;Erster;Hoch;Tief;Schlusskurs;Volumen;Stücke',
  '02.01.2024;1.234,50;1.240,00;1.230,00;1.238,25;13.580.000,00;1.000',
  '03.01.2024;1.238,25;1.250,00;1.235,00;1.245,00;13.580.000,00;2.500',
].join('\r\n');

describe('CSV text', () => {
  it('decodes UTF-8, Windows-1252 when the bytes are not UTF-8, and UTF-16 by its byte order mark', () => {
    expect(decodeCsvText(Buffer.from('Datum;Eröffnung', 'utf8'))).toEqual({
      text: 'Datum;Eröffnung',
      encoding: 'utf-8',
    });
    expect(decodeCsvText(Buffer.from('Datum;Eröffnung', 'latin1'))).toEqual({
      text: 'Datum;Eröffnung',
      encoding: 'windows-1252',
    });
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Datum\tStücke', 'utf16le')]);
    expect(decodeCsvText(le)).toEqual({ text: 'Datum\tStücke', encoding: 'utf-16le' });
    const be = Buffer.from(
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Zeit', 'utf16le')]).swap16(),
    );
    expect(decodeCsvText(be)).toEqual({ text: 'Zeit', encoding: 'utf-16be' });
  });

  it("reads a Windows-1252 ariva export's share count Stücke, not its turnover, and says how it read the text", async () => {
    const input = join(aTempDir(), 'ariva.csv');
    writeFileSync(input, Buffer.from(ARIVA, 'latin1'));
    const bars = await readOhlcvCsvBars({ input, sym: 'US_EQUITY_SPY' });
    expect(bars.messages.map((m) => m.data.volume)).toEqual(['1000', '2500']);
    expect(bars.columns).toBe(
      'time=Datum, open=Erster, high=Hoch, low=Tief, close=Schlusskurs, volume=Stücke; text decoded as windows-1252',
    );
  });
});

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CsvEncoding, csvFileLines } from '../../../backtest/csv/csv-file-lines.ts';
import { textLines } from '../../../backtest/csv/csv-lines.ts';
import { readOhlcvCsvBars } from '../../../backtest/csv/index.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const aTempDir = tempDirsRemovedAfterAll('keel-csv-text-');

/** ariva's export: Windows-1252, a money turnover `Volumen` and the share count `Stücke`. */
const ARIVA = [
  'Datum;Erster;Hoch;Tief;Schlusskurs;Volumen;Stücke',
  '02.01.2024;1.234,50;1.240,00;1.230,00;1.238,25;13.580.000,00;1.000',
  '03.01.2024;1.238,25;1.250,00;1.235,00;1.245,00;13.580.000,00;2.500',
].join('\r\n');

let scratchDir: string | undefined;

/** A file of these bytes, read back as lines with `chunkBytes`. */
function linesOf(bytes: Uint8Array, chunkBytes?: number) {
  scratchDir ??= aTempDir();
  const file = join(scratchDir, 'lines.csv');
  writeFileSync(file, bytes);
  const lines = csvFileLines(file, chunkBytes);
  return { encoding: lines.encoding, forward: [...lines.forward()], backward: [...lines.backward()] };
}

/**
 * The file's text as Keel read it whole before it read files a chunk at a time: UTF-16 by its byte
 * order mark, else UTF-8, else Windows-1252.
 */
function wholeText(bytes: Uint8Array): { text: string; encoding: CsvEncoding } {
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return { text: new TextDecoder('utf-16le').decode(bytes), encoding: 'utf-16le' };
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return { text: new TextDecoder('utf-16be').decode(bytes), encoding: 'utf-16be' };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' };
  } catch {
    return { text: new TextDecoder('windows-1252').decode(bytes), encoding: 'windows-1252' };
  }
}

function utf16(text: string, order: 'le' | 'be'): Buffer {
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  return order === 'le' ? le : Buffer.from(le).swap16();
}

/** Bytes that are often line breaks, byte order marks and UTF-8 or UTF-16 pieces. */
const csvBytes = fc
  .array(
    fc.oneof(
      fc.constantFrom([0x0a], [0x0d, 0x0a], [0x0d], [0xef, 0xbb, 0xbf], [0xc3, 0xbc], [0xfc], [0x00]),
      fc.array(fc.integer({ min: 0x20, max: 0x7e }), { maxLength: 5 }),
      fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 3 }),
    ),
    { maxLength: 40 },
  )
  .map((parts) => Uint8Array.from(parts.flat()));

describe('CSV file lines', () => {
  it('decodes UTF-8, Windows-1252 when the bytes are not UTF-8, and UTF-16 by its byte order mark', () => {
    expect(linesOf(Buffer.from('Datum;Eröffnung', 'utf8'))).toMatchObject({
      forward: ['Datum;Eröffnung'],
      encoding: 'utf-8',
    });
    expect(linesOf(Buffer.from('Datum;Eröffnung', 'latin1'))).toMatchObject({
      forward: ['Datum;Eröffnung'],
      encoding: 'windows-1252',
    });
    expect(linesOf(utf16('Datum\tStücke', 'le'))).toMatchObject({
      forward: ['Datum\tStücke'],
      encoding: 'utf-16le',
    });
    expect(linesOf(utf16('Zeit', 'be'))).toMatchObject({ forward: ['Zeit'], encoding: 'utf-16be' });
  });

  it('reads, forward and from the end, a chunk at a time, the lines of the whole text, in every encoding', () => {
    const chunkBytes = fc.integer({ min: 1, max: 9 }).map((n) => 2 * n);
    const sameLines = (bytes: Uint8Array, chunk: number) => {
      const whole = wholeText(bytes);
      const expected = textLines(whole.text);
      const read = linesOf(bytes, chunk);
      expect(read.encoding).toBe(whole.encoding);
      expect(read.forward).toEqual([...expected.forward()]);
      expect(read.backward).toEqual([...expected.backward()]);
    };
    fc.assert(fc.property(csvBytes, chunkBytes, sameLines), { numRuns: 300 });
    const text = fc.string({
      unit: fc.constantFrom('a', 'ü', '\n', '\r', '😀', '\uFEFF', ',', '1'),
      maxLength: 30,
    });
    fc.assert(
      fc.property(text, fc.constantFrom('le', 'be'), fc.boolean(), chunkBytes, (t, order, oddByte, chunk) => {
        const bytes = utf16(t, order as 'le' | 'be');
        sameLines(oddByte ? Buffer.concat([bytes, Buffer.from([0x41])]) : bytes, chunk);
      }),
      { numRuns: 300 },
    );
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

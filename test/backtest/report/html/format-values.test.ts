import { describe, expect, it } from 'vitest';
import { formatPercent } from '../../../../backtest/report/html/format-values.ts';

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
});

import { describe, expect, it } from 'vitest';
import { equitySampleStepFor } from '../../../backtest/runner/equity-sample-step.ts';

const HOUR = 3_600_000;

describe('default equity sampling step', () => {
  it('samples a session of a few hours every second and a run of a week or more every minute', () => {
    // 50 s / 10 000 = 5 ms wanted: the finest step, 1 s (50 samples).
    expect(equitySampleStepFor(50_000)).toBe(1_000);
    // 2.2 h = 7 920 s / 10 000 = 0.79 s wanted: 1 s, as the paper session sampled it.
    expect(equitySampleStepFor(2.2 * HOUR)).toBe(1_000);
    // 24 h = 86 400 s / 10 000 = 8.64 s wanted: 10 s (8 640 samples).
    expect(equitySampleStepFor(24 * HOUR)).toBe(10_000);
    // 3 days = 259 200 s / 10 000 = 25.9 s wanted: 30 s.
    expect(equitySampleStepFor(72 * HOUR)).toBe(30_000);
    // 7 days = 604 800 s / 10 000 = 60.5 s wanted: above every step, the 60 s default.
    expect(equitySampleStepFor(7 * 24 * HOUR)).toBe(60_000);
    expect(equitySampleStepFor(365 * 24 * HOUR)).toBe(60_000);
  });

  it('keeps the 60 s default when the span is unknown or nonsense', () => {
    expect(equitySampleStepFor(undefined)).toBe(60_000);
    expect(equitySampleStepFor(Number.NaN)).toBe(60_000);
    expect(equitySampleStepFor(-5)).toBe(60_000);
    expect(equitySampleStepFor(0)).toBe(1_000);
  });
});

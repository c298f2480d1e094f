import { describe, expect, it } from 'vitest';
import { createProgressReporter, withCommission } from '../../../backtest/runner/index.ts';
import { D } from '../../../core/model/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';

function aStream(isTTY: boolean): { isTTY: boolean; text: string; write(chunk: string): boolean } {
  return {
    isTTY,
    text: '',
    write(chunk: string) {
      this.text += chunk;
      return true;
    },
  };
}

/** A reporter writing plain lines at most every second of a clock the test moves. */
function plainLines() {
  const stream = aStream(false);
  const clock = { now: 0 };
  const progress = createProgressReporter({
    stream: stream as unknown as NodeJS.WritableStream,
    clock: { now: () => clock.now },
    lineEveryMs: 1000,
  });
  return { stream, progress, clock };
}

describe('progress output', () => {
  it('prints plain lines with the share of event time replayed, events/s and ETA when not on a terminal', () => {
    const { stream, progress, clock } = plainLines();
    progress.start(3_600_000); // an hour of event time
    clock.now = 500;
    progress.update(100_000, 600_000); // too soon for a line
    clock.now = 1000;
    progress.update(250_000, 900_000);
    clock.now = 2000;
    progress.stop();
    // A quarter of the hour in 1 s of wall time: 3 s to go; then a quarter in 2 s: 6 s to go.
    expect(stream.text.trimEnd().split('\n')).toEqual([
      'backtest: 250000 events, 25.0 % of event time, 250000 ev/s, ETA 3s',
      'backtest: 250000 events, 25.0 % of event time, 125000 ev/s, ETA 6s',
    ]);
  });

  it('does not repeat the last timed line when the run stops with nothing new to say', () => {
    const { stream, progress, clock } = plainLines();
    progress.start(1000);
    clock.now = 1000;
    progress.update(500, 1000);
    progress.stop();
    expect(stream.text).toBe('backtest: 500 events, 100.0 % of event time, 500 ev/s, ETA 0s\n');
  });

  it('draws a cli-progress bar on a terminal', () => {
    const stream = aStream(true) as unknown as NodeJS.WritableStream & { text: string };
    Object.assign(stream, {
      cursorTo: () => true,
      clearLine: () => true,
      moveCursor: () => true,
      columns: 120,
    });
    const progress = createProgressReporter({ stream, clock: { now: () => 0 } });
    progress.start(10);
    progress.update(7, 5);
    progress.stop();
    expect(stream.text).toContain('50% of event time | 7 events');
    expect(stream.text).toContain('ev/s');
  });
});

describe('flat commission', () => {
  const btc = anInstrument('BINANCE_PERP_BTC_USDT');

  it('replaces the fee schedule by a flat commission', () => {
    const spec = withCommission(btc, { rate: D('0.001'), fixedPerFill: D('1') });
    expect([spec.fees.maker.toFixed(), spec.fees.taker.toFixed(), spec.fees.fixedPerFill.toFixed()]).toEqual([
      '0.001',
      '0.001',
      '1',
    ]);
  });
});

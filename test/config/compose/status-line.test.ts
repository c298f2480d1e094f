import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatStatus, showStatus, statusLogTo } from '../../../config/compose/status-line.ts';
import { D } from '../../../core/model/index.ts';

const status = {
  mode: 'paper' as const,
  elapsedMs: 12_400,
  events: 5321,
  intents: 88,
  fills: 14,
  equity: D('100012.346'),
  pnl: D('12.346'),
  settleAsset: 'USDT',
};

describe('status line', () => {
  it('shows events, intents, fills, equity and signed PnL on one line', () => {
    expect(formatStatus(status)).toBe(
      'paper 12s | events 5321 | intents 88 | fills 14 | equity 100012.35 USDT | PnL +12.35',
    );
    expect(formatStatus({ ...status, pnl: D('-3.1') })).toMatch(/PnL -3\.10$/);
  });

  it('shows a trading state other than ACTIVE last, so a kill switch trip is seen', () => {
    expect(formatStatus({ ...status, trading: 'HALTED' })).toBe(
      'paper 12s | events 5321 | intents 88 | fills 14 | equity 100012.35 USDT | PnL +12.35 | trading HALTED',
    );
  });

  it('names the venue streams that are not ready before the trading state, so an outage is seen', () => {
    expect(
      formatStatus({ ...status, streams: ['market down', 'private not reconciled'], trading: 'HALTED' }),
    ).toBe(
      'paper 12s | events 5321 | intents 88 | fills 14 | equity 100012.35 USDT | PnL +12.35 | streams market down, private not reconciled | trading HALTED',
    );
    expect(formatStatus({ ...status, streams: [] })).toBe(formatStatus(status));
  });

  it('ends an in-place TTY line with a final status and a newline when stopped', () => {
    let written = '';
    const stop = showStatus({ isTTY: true, write: (text: string) => (written += text) }, () => status);
    stop();
    expect(written).toBe(`\r\x1b[2K${formatStatus(status)}\n`);
  });

  describe('when the sink is not a terminal', () => {
    afterEach(() => vi.useRealTimers());

    it('goes into the log as a record, not as plain text among the JSON lines', () => {
      vi.useFakeTimers();
      let written = '';
      const records: [Record<string, unknown>, string][] = [];
      const stop = showStatus(
        { isTTY: false, write: (text: string) => (written += text) },
        () => ({ ...status, streams: ['private down'], trading: 'REDUCING' }),
        5_000,
        statusLogTo({
          info: (fields: Record<string, unknown>, msg: string) => records.push([fields, msg]),
        } as never),
      );
      vi.advanceTimersByTime(10_000);
      stop();
      expect(written).toBe('');
      const record = {
        mode: 'paper',
        elapsedMs: 12_400,
        events: 5321,
        intents: 88,
        fills: 14,
        equity: '100012.35',
        pnl: '12.35',
        settleAsset: 'USDT',
        streamsNotReady: ['private down'],
        trading: 'REDUCING',
      };
      expect(records).toEqual([
        [record, 'status'],
        [record, 'status'],
      ]);
    });

    it('is a plain line every interval without a log', () => {
      vi.useFakeTimers();
      let written = '';
      const stop = showStatus(
        { isTTY: false, write: (text: string) => (written += text) },
        () => status,
        5_000,
      );
      vi.advanceTimersByTime(5_000);
      stop();
      expect(written).toBe(`${formatStatus(status)}\n`);
    });
  });
});

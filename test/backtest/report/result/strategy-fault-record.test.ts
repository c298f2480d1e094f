import { describe, expect, it } from 'vitest';
import { formatStrategyFault, userFrameOf } from '../../../../backtest/report/index.ts';

const KEEL_FRAME = `    at Kernel.deliver (${process.cwd()}/core/kernel/kernel.ts:1:1)`;

describe('the user frame of a fault', () => {
  it('keeps the whole path of a plugin whose folder or name has spaces, parentheses or a #', () => {
    const stack = [
      'Error: boom',
      '    at Object.onBar (/home/ci/my project/strats (v2)/my strät #1.ts:12:49)',
      KEEL_FRAME,
    ].join('\n');
    expect(userFrameOf(stack, '/elsewhere')).toBe('/home/ci/my project/strats (v2)/my strät #1.ts:12:49');
  });

  it("reads an anonymous async frame, and knows a Keel frame in that form as Keel's", () => {
    const stack = [
      'Error: boom',
      `    at async file://${process.cwd()}/core/kernel/kernel.ts:1:1`,
      '    at async file:///home/u/proj/strategies/my-strat.ts:12:7',
    ].join('\n');
    expect(userFrameOf(stack, '/home/u/proj')).toBe('strategies/my-strat.ts:12:7');
  });

  it('reads frames without a function name, and file URLs', () => {
    expect(userFrameOf(['Error: x', '    at /home/ci/a b.ts:3:4'].join('\n'), '/')).toBe(
      'home/ci/a b.ts:3:4',
    );
    expect(userFrameOf('Error: x\n    at fn (file:///home/ci/a%20b.ts:3:4)', '/srv')).toBe(
      '/home/ci/a b.ts:3:4',
    );
  });

  it('names a plugin inside the working directory relative to it, so results do not depend on the checkout', () => {
    const stack = ['Error: boom', '    at onBar (/work/a/strategies/sma.ts:12:49)', KEEL_FRAME].join('\n');
    expect(userFrameOf(stack, '/work/a')).toBe('strategies/sma.ts:12:49');
    expect(userFrameOf(stack.replace('/work/a/', '/work/b/'), '/work/b')).toBe('strategies/sma.ts:12:49');
  });

  it("skips Keel's own frames, node's and frames without a location", () => {
    const stack = [
      'Error: boom',
      '    at async Promise.all (index 0)',
      '    at node:internal/process/task_queues:95:5',
      KEEL_FRAME,
    ].join('\n');
    expect(userFrameOf(stack, '/')).toBeUndefined();
  });
});

describe('a fault as one line', () => {
  it('keeps an error message with line breaks on one line', () => {
    const line = formatStrategyFault({
      strategyId: 's',
      hook: 'onBar',
      ts: 0,
      error: 'Error: first line\n  second line',
      at: 'strategies/s.ts:1:2',
    });
    expect(line).toBe(
      'strategy s: onBar threw at 1970-01-01 00:00:00 UTC: Error: first line / second line (at strategies/s.ts:1:2); it was halted and did nothing more in this run',
    );
  });
});

import fc from 'fast-check';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { EXIT } from '../../../config/cli/exit-codes.ts';
import {
  forceStopOnSecondSignal,
  type SessionStopReason,
  sessionExitCode,
  unreconciledStopWarning,
} from '../../../config/compose/session-stop.ts';
import { stopLeftovers } from '../../../config/compose/stop-leftovers.ts';
import { D, type Position } from '../../../core/model/index.ts';

const REASONS: readonly SessionStopReason[] = ['duration', 'ended', 'SIGINT', 'SIGTERM', 'SIGHUP', 'feed'];

describe('session exit code', () => {
  it('ranks orders left open over a strategy fault over the signal, whatever stopped the session', () => {
    fc.assert(
      fc.property(fc.constantFrom(...REASONS), fc.nat(3), fc.nat(3), (reason, faults, leftOpen) => {
        const code = sessionExitCode(reason, faults, leftOpen);
        if (leftOpen > 0) expect(code).toBe(EXIT.ORDERS_LEFT_OPEN);
        else if (faults > 0) expect(code).toBe(EXIT.STRATEGY_FAULT);
        else if (reason === 'SIGINT') expect(code).toBe(EXIT.INTERRUPTED);
        else if (reason === 'SIGTERM') expect(code).toBe(EXIT.TERMINATED);
        else if (reason === 'SIGHUP') expect(code).toBe(EXIT.HANGUP);
        else expect(code).toBe(EXIT.OK);
      }),
    );
  });

  it('exits 3, not 130, when a live session with a halted strategy is stopped by Ctrl-C', () => {
    expect(sessionExitCode('SIGINT', 1)).toBe(3);
    expect(sessionExitCode('SIGTERM', 1)).toBe(3);
  });

  it('exits 129 when a SIGHUP stopped the session gracefully', () => {
    expect(sessionExitCode('SIGHUP', 0)).toBe(EXIT.HANGUP);
  });
});

describe('what a stopped session left on the venue', () => {
  const logger = pino({ level: 'silent' });
  const position = (sym: string, qty: string, side: Position['positionSide']) =>
    ({ sym, positionQty: D(qty), positionSide: side }) as Position;

  it('notes the orders and positions left open as configured (cancelAllOrders false)', () => {
    const left = stopLeftovers(
      undefined,
      {
        orders: [{ clientOrderId: 'rest1-tow6r1fr-1' }, { clientOrderId: 'rest1-tow6r1fr-2' }],
        algoRefs: [],
        positions: [
          position('BINANCE_PERP_BTC_USDT', '0.06', 'NONE'),
          position('BINANCE_PERP_ETH_USDT', '0', 'NONE'),
        ],
      },
      10_000,
      logger,
    );
    expect(left).toEqual({
      warnings: [],
      notes: [
        'left open on the venue (shutdown.cancelAllOrders is false): 2 orders (rest1-tow6r1fr-1, rest1-tow6r1fr-2); positions BINANCE_PERP_BTC_USDT 0.06',
      ],
    });
  });

  it('notes the positions the cancels left open, with the protective orders kept for them', () => {
    const left = stopLeftovers(
      {
        attempts: 1,
        leftOpen: [],
        kept: [{ ref: 'sl-1', sym: 'BINANCE_PERP_BTC_USDT', positionSide: 'NONE' }],
        unprotected: [],
      },
      {
        orders: [],
        algoRefs: [],
        positions: [
          position('BINANCE_PERP_BTC_USDT', '0.06', 'NONE'),
          position('BINANCE_PERP_ETH_USDT', '-1', 'NONE'),
        ],
      },
      10_000,
      logger,
    );
    expect(left).toEqual({
      warnings: [],
      notes: [
        'left open on the venue: positions BINANCE_PERP_BTC_USDT 0.06 (kept sl-1), BINANCE_PERP_ETH_USDT -1 (shutdown.cancelAllOrders cancels orders, not positions, and shutdown.keepProtectiveOrders kept their protective orders)',
      ],
    });
  });

  it('notes the positions the cancels left open when none had protective orders', () => {
    const left = stopLeftovers(
      { attempts: 1, leftOpen: [], kept: [], unprotected: [] },
      { orders: [], algoRefs: [], positions: [position('BINANCE_PERP_BTC_USDT', '-0.04', 'NONE')] },
      10_000,
      logger,
    );
    expect(left.notes).toEqual([
      'left open on the venue: positions BINANCE_PERP_BTC_USDT -0.04 (shutdown.cancelAllOrders cancels orders, not positions)',
    ]);
  });

  it('warns of a position left open whose protective orders the cancels took (keepProtectiveOrders false)', () => {
    const left = stopLeftovers(
      {
        attempts: 1,
        leftOpen: [],
        kept: [],
        unprotected: [
          { ref: 'sl-1', sym: 'BINANCE_PERP_BTC_USDT', positionSide: 'LONG' },
          { ref: 'sl-2', sym: 'BINANCE_PERP_ETH_USDT', positionSide: 'NONE' },
        ],
      },
      {
        orders: [],
        algoRefs: [],
        positions: [
          position('BINANCE_PERP_BTC_USDT', '0.06', 'LONG'),
          position('BINANCE_PERP_ETH_USDT', '0', 'NONE'),
        ],
      },
      10_000,
      logger,
    );
    expect(left.warnings).toEqual([
      'position left open on the venue without its protective orders, cancelled at stop as shutdown.keepProtectiveOrders is false: BINANCE_PERP_BTC_USDT LONG 0.06 (cancelled sl-1)',
    ]);
  });

  it('says nothing when nothing is left', () => {
    expect(stopLeftovers(undefined, { orders: [], algoRefs: [], positions: [] }, 10_000, logger)).toEqual({
      warnings: [],
      notes: [],
    });
  });

  it('warns about orders the cancels at stop could not cancel', () => {
    const left = stopLeftovers(
      { attempts: 6, leftOpen: ['a-1'], kept: [], unprotected: [] },
      { orders: [], algoRefs: [], positions: [] },
      10_000,
      logger,
    );
    expect(left.warnings).toEqual([
      '1 order may still be open on the venue: a-1 (shutdown.cancelAllOrders could not cancel it in 6 attempts within shutdown.timeoutMs 10000 ms; check the venue)',
    ]);
  });
});

describe('commands whose fate is unknown at stop', () => {
  const logger = pino({ level: 'silent' });
  const unanswered = {
    commands: [
      { ref: 'rest1-tow6r1fr-3', kind: 'placeOrder' as const, sentAt: 0 },
      { ref: 'loan1-tow6r1fr-1', kind: 'borrow' as const, sentAt: 0 },
    ],
    lookedUpUntil: Date.UTC(2026, 10, 29, 13, 0, 10),
  };
  const warning =
    "2 commands sent before the stop have no answer from the venue: rest1-tow6r1fr-3 (placeOrder), loan1-tow6r1fr-1 (borrow) (fate unknown: looked up until 2026-11-29T13:00:10.000Z, shutdown.timeoutMs 10000 ms; they may have taken effect: check the venue's open orders, algo orders and loans)";

  it('are named in a warning after cancels that cancelled everything else', () => {
    const left = stopLeftovers(
      { attempts: 1, leftOpen: [], kept: [], unprotected: [] },
      { orders: [], algoRefs: [], positions: [], unanswered },
      10_000,
      logger,
    );
    expect(left).toEqual({ warnings: [warning], notes: [] });
  });

  it('are named in the warning and in the note of what was left open (cancelAllOrders false)', () => {
    const left = stopLeftovers(
      undefined,
      { orders: [{ clientOrderId: 'rest1-tow6r1fr-1' }], algoRefs: [], positions: [], unanswered },
      10_000,
      logger,
    );
    expect(left).toEqual({
      warnings: [warning],
      notes: [
        'left open on the venue (shutdown.cancelAllOrders is false): 1 order (rest1-tow6r1fr-1); 2 commands (rest1-tow6r1fr-3, loan1-tow6r1fr-1) of unknown fate',
      ],
    });
  });

  it('make the exit code 4', () => {
    expect(sessionExitCode('SIGTERM', 0, unanswered.commands.length)).toBe(EXIT.ORDERS_LEFT_OPEN);
  });
});

describe('a second signal during the shutdown', () => {
  // The handlers are called as the process would call them, not by raising a real signal.
  const newest = (signal: 'SIGINT' | 'SIGTERM' | 'SIGHUP') => process.listeners(signal).at(-1) as () => void;

  it.each([
    ['SIGINT', EXIT.INTERRUPTED],
    ['SIGTERM', EXIT.TERMINATED],
    ['SIGHUP', EXIT.HANGUP],
  ] as const)(
    'on %s saves first, deaf to further signals meanwhile, then exits %i, and removes both handlers',
    (signal, code) => {
      const before = [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')];
      const calls: string[] = [];
      const exit = vi.fn((c: number) => calls.push(`exit ${c}`));
      // A third signal while the recording is saved must find a listener, or it kills the process.
      const listenersWhileSaving = () =>
        [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')].join(',');
      forceStopOnSecondSignal((s) => calls.push(`save on ${s} (${listenersWhileSaving()})`), exit);
      expect([process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')]).toEqual(
        before.map((n) => n + 1),
      );
      newest(signal)();
      expect(calls).toEqual([`save on ${signal} (${before.map((n) => n + 1).join(',')})`, `exit ${code}`]);
      expect([process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')]).toEqual(before);
    },
  );

  it('does nothing once the shutdown is done and its handlers are removed', () => {
    const before = process.listenerCount('SIGINT');
    const exit = vi.fn();
    const done = forceStopOnSecondSignal(() => {}, exit);
    done();
    expect(process.listenerCount('SIGINT')).toBe(before);
    expect(exit).not.toHaveBeenCalled();
  });
});

describe('a session stopped on a stale view of the venue', () => {
  it("warns that the result may miss what happened since the outage began, in the kernel's words", () => {
    const staleness =
      "the venue's private stream has been down since 2026-11-28T19:40:00.000Z (closed with code 1006)";
    expect(unreconciledStopWarning(staleness)).toBe(
      `${staleness} when the session stopped: orders, fills and balances since then may be missing from this result (the venue's order and trade history has them)`,
    );
  });

  it('says nothing when the view was reconciled', () => {
    expect(unreconciledStopWarning(undefined)).toBeUndefined();
  });
});

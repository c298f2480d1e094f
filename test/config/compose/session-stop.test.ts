import fc from 'fast-check';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../../config/cli/exit-codes.ts';
import { type SessionStopReason, sessionExitCode } from '../../../config/compose/session-stop.ts';
import { stopLeftovers } from '../../../config/compose/stop-leftovers.ts';
import { D, type Position } from '../../../core/model/index.ts';

const REASONS: readonly SessionStopReason[] = ['duration', 'ended', 'SIGINT', 'SIGTERM', 'feed'];

describe('session exit code', () => {
  it('ranks orders left open over a strategy fault over the signal, whatever stopped the session', () => {
    fc.assert(
      fc.property(fc.constantFrom(...REASONS), fc.nat(3), fc.nat(3), (reason, faults, leftOpen) => {
        const code = sessionExitCode(reason, faults, leftOpen);
        if (leftOpen > 0) expect(code).toBe(EXIT.ORDERS_LEFT_OPEN);
        else if (faults > 0) expect(code).toBe(EXIT.STRATEGY_FAULT);
        else if (reason === 'SIGINT') expect(code).toBe(EXIT.INTERRUPTED);
        else if (reason === 'SIGTERM') expect(code).toBe(EXIT.TERMINATED);
        else expect(code).toBe(EXIT.OK);
      }),
    );
  });

  it('exits 3, not 130, when a live session with a halted strategy is stopped by Ctrl-C', () => {
    expect(sessionExitCode('SIGINT', 1)).toBe(3);
    expect(sessionExitCode('SIGTERM', 1)).toBe(3);
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

  it('says nothing when nothing is left', () => {
    expect(stopLeftovers(undefined, { orders: [], algoRefs: [], positions: [] }, 10_000, logger)).toEqual({
      warnings: [],
      notes: [],
    });
  });

  it('warns about orders the cancels at stop could not cancel', () => {
    const left = stopLeftovers(
      { attempts: 6, leftOpen: ['a-1'] },
      { orders: [], algoRefs: [], positions: [] },
      10_000,
      logger,
    );
    expect(left.warnings).toEqual([
      '1 order may still be open on the venue: a-1 (shutdown.cancelAllOrders could not cancel it in 6 attempts within shutdown.timeoutMs 10000 ms; check the venue)',
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { GIVEN_UP_WARNINGS_NAMED, GivenUpWarnings } from '../../../config/compose/given-up-warnings.ts';
import type { AlgoChildGivenUp, FillGivenUp, GivenUpCause } from '../../../core/kernel/index.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';

function child(algoOrderId: string, orderId: string, cause: GivenUpCause, dropped = 1): AlgoChildGivenUp {
  return { cause, clientOrderId: '', orderId, sym: BTC, algoOrderId, heldAt: 0, dropped, ts: 1, reason: '' };
}

function fill(orderId: string, transactionId: string, cause: GivenUpCause): FillGivenUp {
  return {
    cause,
    transactionId,
    orderId,
    clientOrderId: '',
    sym: BTC,
    side: 'BUY',
    qty: '1',
    price: '100',
    heldAt: 0,
    ts: 1,
    reason: '',
  };
}

describe('GivenUpWarnings', () => {
  it('has none when nothing was given up', () => {
    expect(new GivenUpWarnings().warnings()).toEqual([]);
  });

  // An algo order placed by hand sends orders all day: one line for all of them, not one per order.
  it('says one line per algo order for all its orders, and one per order for all its fills', () => {
    const warnings = new GivenUpWarnings();
    warnings.algoChild(child('A-9', 'v1', 'timeout', 2));
    warnings.algoChild(child('A-8', 'v2', 'timeout'));
    warnings.algoChild(child('A-9', 'v3', 'capacity', 0));
    warnings.algoChild(child('A-9', 'v4', 'timeout'));
    warnings.algoChild(child('A-9', 'v6', 'backlog', 2));
    warnings.fill(fill('v5', 't1', 'timeout'));
    warnings.fill(fill('v5', 't2', 'capacity'));
    expect(warnings.warnings()).toEqual([
      `algo order A-9 on ${BTC} was never reported by the venue (placed by hand, or its report was lost): 4 order(s) it sent were given up to no strategy (2 after waiting 10 s, 1 pushed out by 1000 newer ones first, 1 whose updates and fills were pushed out by 1000 newer ones held first), with 5 update(s) and fill(s) held for them`,
      `algo order A-8 on ${BTC} was never reported by the venue (placed by hand, or its report was lost): 1 order(s) it sent were given up to no strategy (1 after waiting 10 s), with 1 update(s) and fill(s) held for them`,
      `order v5 on ${BTC}: 2 fill(s) came before its first update, which never came, and were given up to no strategy (1 after waiting 10 s, 1 pushed out by 1000 newer ones first)`,
    ]);
  });

  it(`names the first ${GIVEN_UP_WARNINGS_NAMED} algo orders and orders, and counts the rest in one line each`, () => {
    const warnings = new GivenUpWarnings();
    for (let n = 0; n < GIVEN_UP_WARNINGS_NAMED + 3; n++) {
      warnings.algoChild(child(`A-${n}`, `v${n}`, 'timeout'));
      warnings.fill(fill(`w${n}`, `t${n}`, 'timeout'));
    }
    warnings.algoChild(child('A-0', 'v-again', 'timeout'));
    const lines = warnings.warnings();
    expect(lines).toHaveLength(2 * GIVEN_UP_WARNINGS_NAMED + 2);
    expect(lines[0]).toContain('2 order(s) it sent');
    expect(lines[GIVEN_UP_WARNINGS_NAMED]).toBe(
      '3 more order(s) of other algo orders the venue never reported were given up to no strategy',
    );
    expect(lines.at(-1)).toBe(
      '3 more fill(s) of other orders whose first update never came were given up to no strategy',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { isFinalOrderState, VENUE_ORDER_STATES } from '../../../core/model/index.ts';

describe('order states', () => {
  it('treats FILLED, CANCELLED, REJECTED and FAIL as final and the rest as live', () => {
    const finals = VENUE_ORDER_STATES.filter(isFinalOrderState);
    expect(finals).toEqual(['FILLED', 'CANCELLED', 'REJECTED', 'FAIL']);
    expect(isFinalOrderState('PENDING_NEW')).toBe(false);
  });
});

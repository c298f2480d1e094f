import { describe, expect, it } from 'vitest';
import {
  FINAL_ORDER_STATES,
  IN_FLIGHT_ORDER_STATES,
  isFinalOrderState,
  VENUE_ORDER_STATES,
} from '../../../core/model/index.ts';

describe('order states', () => {
  it('treats FILLED, CANCELLED, REJECTED and FAIL as final and the rest as live', () => {
    const finals = VENUE_ORDER_STATES.filter(isFinalOrderState);
    expect(finals).toEqual(['FILLED', 'CANCELLED', 'REJECTED', 'FAIL']);
    expect(isFinalOrderState('PENDING_NEW')).toBe(false);
  });

  it('agrees with FINAL_ORDER_STATES on every state, in-flight ones included', () => {
    for (const state of [...VENUE_ORDER_STATES, ...IN_FLIGHT_ORDER_STATES])
      expect(isFinalOrderState(state)).toBe(FINAL_ORDER_STATES.has(state));
  });
});

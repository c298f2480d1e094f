import { describe, expect, it } from 'vitest';
import type { AlgoOrder, UserEvent } from '../../../../core/model/index.ts';
import type { VenueRestClient } from '../../../../core/venue/index.ts';
import { cancelAllAlgoOrdersAndReadBack } from '../../../../core/venue/live/algo-cancel-all.ts';
import { algoOrderFromWire } from '../../../../core/venue/mapping/user-data-mapping.ts';
import { WIRE_ALGO_ORDER } from '../../../kit/venue-wire-samples.ts';

const WIRE = { ...WIRE_ALGO_ORDER, algoOrderId: 'a-1', clientAlgoOrderId: 'ca-1', algoOrderState: 'NEW' };

/**
 * A cancel of all algo orders whose read-back shows an algo order in a state Keel does not know
 * (an exchange's FINISHED) ends it CANCELLED in Keel at once: right, as it is not open, but said
 * nowhere, where the lost-reply path warns that the venue may still hold it.
 */
describe('a cancel of all algo orders whose read-back shows a state Keel does not know', () => {
  it('warns, naming the algo order and the state, as it ends it CANCELLED', async () => {
    const rest = {
      getOpenAlgoOrders: async () => [WIRE],
      cancelAllAlgoOrders: async () => undefined,
      getAlgoOrder: async () => ({ ...WIRE, algoOrderState: 'FINISHED' }),
    } as unknown as VenueRestClient;
    const events: UserEvent[] = [];
    const warned: { algoOrder: AlgoOrder; state: string }[] = [];
    await cancelAllAlgoOrdersAndReadBack(
      rest,
      { kind: 'cancelAllAlgoOrders', ref: 'x-all' },
      {
        emit: (event) => events.push(event),
        now: () => 1_700_000_000_000,
        followUpFailed: () => undefined,
        openAlgoOrders: () => [algoOrderFromWire(WIRE)],
        unknownAlgoState: (algoOrder, state) => warned.push({ algoOrder, state }),
      },
    );
    expect(events.map((e) => (e.kind === 'algoOrder' ? e.algoOrder.state : e.kind))).toEqual(['CANCELLED']);
    expect(warned.map((w) => `${w.algoOrder.clientAlgoOrderId} ${w.state}`)).toEqual(['ca-1 FINISHED']);
  });
});

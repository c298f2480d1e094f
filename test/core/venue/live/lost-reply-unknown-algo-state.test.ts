import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { D, type Intent, type UserEvent } from '../../../../core/model/index.ts';
import type { VenueRestClient } from '../../../../core/venue/index.ts';
import { LoanReadOrder } from '../../../../core/venue/live/loan-read-order.ts';
import { lookUpLostCommand } from '../../../../core/venue/live/lost-reply-lookups.ts';
import { algoOrderFromWire } from '../../../../core/venue/mapping/user-data-mapping.ts';
import { aSellStop } from '../../../kit/intent-builders.ts';
import { WIRE_ALGO_ORDER } from '../../../kit/venue-wire-samples.ts';

const NOW = 1_700_000_000_000;
const WIRE = {
  ...WIRE_ALGO_ORDER,
  algoOrderId: 'a-1',
  clientAlgoOrderId: 'algo-1',
  algoOrderState: 'FINISHED',
};

/** A REST client whose algo order lookup answers the algo order in a state Keel does not know. */
const rest = { getAlgoOrder: async () => WIRE } as unknown as VenueRestClient;

const context = {
  rest,
  now: () => NOW,
  openAlgoOrders: () => [{ ...algoOrderFromWire(WIRE), state: 'NEW' as const }],
  loanReads: new LoanReadOrder(),
  logger: pino({ level: 'silent' }),
};

const algoStates = (events: readonly UserEvent[]) =>
  events.flatMap((e) => (e.kind === 'algoOrder' ? [e.algoOrder.state] : []));

/**
 * The lookup of a REST command whose reply was lost read an algo order in a state Keel does not
 * know (an exchange's FINISHED) as NEW: reported open, it held its strategy's open-algo slot for
 * good, and a lost cancel looked as if it had not taken effect. The algo order lookup takes such a
 * state as not open (algo-order-lookup.ts); so does this one: the algo order exists but is ended.
 */
describe('lost-reply lookups: an algo order in a state Keel does not know', () => {
  it('a lost placement took effect, and its algo order is reported ended, not open', async () => {
    const intent: Intent = aSellStop({ ref: 'algo-1', sym: WIRE.sym, reduceOnly: false });
    const verdict = await lookUpLostCommand(intent, context);
    expect(verdict.applied).toBe(true);
    expect(algoStates(verdict.events)).toEqual(['CANCELLED']);
  });

  it('a lost cancel took effect: the algo order is not open', async () => {
    const verdict = await lookUpLostCommand(
      { kind: 'cancelAlgoOrder', ref: 'x-1', target: 'algo-1', sym: WIRE.sym },
      context,
    );
    expect(verdict.applied).toBe(true);
    expect(algoStates(verdict.events)).toEqual(['CANCELLED']);
  });

  it('a lost cancel of all counts it among the ended ones', async () => {
    const verdict = await lookUpLostCommand({ kind: 'cancelAllAlgoOrders', ref: 'x-all' }, context);
    expect(verdict.applied).toBe(true);
    expect(algoStates(verdict.events)).toEqual(['CANCELLED']);
  });

  it('a lost replace did not take effect on an algo order no longer open', async () => {
    const verdict = await lookUpLostCommand(
      {
        kind: 'replaceAlgoOrder',
        ref: 'r-1',
        target: 'algo-1',
        sym: WIRE.sym,
        triggerPrice: D(WIRE.triggerPrice),
      },
      context,
    );
    expect(verdict.applied).toBe(false);
    expect(verdict.detail).toContain('FINISHED');
    expect(algoStates(verdict.events)).toEqual(['CANCELLED']);
  });
});

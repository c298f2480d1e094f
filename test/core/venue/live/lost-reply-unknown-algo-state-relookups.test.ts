import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { StrategyIntent, UserEvent } from '../../../../core/model/index.ts';
import type { VenueRestClient } from '../../../../core/venue/index.ts';
import { LoanReadOrder } from '../../../../core/venue/live/loan-read-order.ts';
import { resolveLostReply } from '../../../../core/venue/live/lost-reply-resolution.ts';
import { aSellStop } from '../../../kit/intent-builders.ts';
import { WIRE_ALGO_ORDER } from '../../../kit/venue-wire-samples.ts';

const NOW = 1_700_000_000_000;
const WIRE = { ...WIRE_ALGO_ORDER, algoOrderId: 'a-1', clientAlgoOrderId: 'algo-1' };

const placement: StrategyIntent = {
  strategyId: 's',
  intent: aSellStop({ ref: 'algo-1', sym: WIRE.sym, reduceOnly: false }),
};

/** Resolves a lost placement on a venue answering its algo order in these states, one per lookup (the last repeated). */
async function resolveOn(states: readonly string[]) {
  const records: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) records.push(JSON.parse(line));
      done();
    },
  });
  let lookups = 0;
  const rest = {
    getAlgoOrder: async () => ({ ...WIRE, algoOrderState: states[Math.min(lookups++, states.length - 1)] }),
  } as unknown as VenueRestClient;
  const events: UserEvent[] = [];
  const refusals: number[] = [];
  await resolveLostReply(placement, new Error('timeout'), {
    rest,
    now: () => NOW,
    openAlgoOrders: () => [],
    loanReads: new LoanReadOrder(),
    policy: { attempts: 4, spacingMs: 500 },
    wait: async () => {},
    emit: (event) => events.push(event),
    refuse: (_command, _message, code) => refusals.push(code),
    logger: pino({ level: 'debug' }, sink),
  });
  const algoStates = events.flatMap((e) => (e.kind === 'algoOrder' ? [e.algoOrder.state] : []));
  const warnings = records.filter((r) => r.level === 40).map((r) => String(r.msg));
  return { lookups, algoStates, refusals, warnings, records };
}

/**
 * After a lost reply, an algo order the venue showed in a state Keel does not know was ended
 * CANCELLED at the first lookup, without a word: Keel forgot an algo order the venue may still
 * hold. As in a reconciliation (algo-order-lookup.ts), it is looked up again within the policy's
 * bounded lookups, and ended with a warning naming it when its state stays unknown.
 */
describe('a lost placement whose algo order the venue shows in a state Keel does not know', () => {
  it('is looked up the policy’s 4 times, then ended CANCELLED with a warning naming the state', async () => {
    const r = await resolveOn(['FINISHED']);
    expect(r.lookups).toBe(4);
    expect(r.algoStates).toEqual(['CANCELLED']);
    expect(r.refusals).toEqual([]);
    expect(r.warnings.filter((m) => m.includes('state Keel does not know'))).toHaveLength(1);
    const warning = r.records.find((rec) => String(rec.msg).includes('state Keel does not know'));
    expect(warning?.algoOrders).toEqual([{ clientAlgoOrderId: 'algo-1', state: 'FINISHED' }]);
  });

  it('is reported open, without the warning, when a later lookup shows a state Keel knows', async () => {
    const r = await resolveOn(['PENDING_X', 'NEW']);
    expect(r.lookups).toBe(2);
    expect(r.algoStates).toEqual(['NEW']);
    expect(r.warnings.filter((m) => m.includes('state Keel does not know'))).toEqual([]);
  });

  it('stops at the first lookup when the state is one Keel knows', async () => {
    const r = await resolveOn(['NEW']);
    expect(r.lookups).toBe(1);
    expect(r.algoStates).toEqual(['NEW']);
  });
});

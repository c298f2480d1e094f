import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { VenueRestClient } from '../../../../core/venue/index.ts';
import { lookUpAlgoOrder } from '../../../../core/venue/live/algo-order-lookup.ts';
import { algoOrderFromWire } from '../../../../core/venue/mapping/user-data-mapping.ts';
import { WIRE_ALGO_ORDER } from '../../../kit/venue-wire-samples.ts';

/**
 * A reconciliation's lookup of an algo order the venue no longer lists open, answered in a state
 * Keel does not know: taken as not open (looked up again, then ended CANCELLED: see
 * algo-order-lookup-unknown-state.test.ts), and the warning says the venue may still hold it, as
 * the lost-reply path's does (lost-reply-unknown-algo-state-relookups.test.ts).
 */
describe('the algo order lookup of a reconciliation, answered in a state Keel does not know', () => {
  it('takes it as not open and warns, naming the state, that the venue may still hold it', async () => {
    const records: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) records.push(JSON.parse(line));
        done();
      },
    });
    const wire = { ...WIRE_ALGO_ORDER, algoOrderState: 'FINISHED' };
    const rest = { getAlgoOrder: async () => wire } as unknown as VenueRestClient;
    const found = await lookUpAlgoOrder(
      rest,
      algoOrderFromWire(WIRE_ALGO_ORDER),
      pino({ level: 'debug' }, sink),
    );
    expect(found).toBeUndefined();
    const warnings = records.filter((r) => r.level === 40);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.algoOrderState).toBe('FINISHED');
    expect(String(warnings[0]?.msg)).toContain('the venue may still hold it');
  });
});

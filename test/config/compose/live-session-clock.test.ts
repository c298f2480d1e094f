import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { liveSessionClock } from '../../../config/compose/live-session-clock.ts';
import { liveSessionRigs, SESSION_SYM } from '../../kit/live-session-rig.ts';

const BUY_ONCE = resolve('test/config/fixtures/buy-once-plugin.ts');
const DAY_MS = 86_400_000;
const DATE_GRAIN_MS = 1_000;
// `keel venue` replaying a recording 400 days old in realtime pacing at speed 1: its data, fills
// and Date header run 400 days behind this machine's clock for the whole session.
const newRig = liveSessionRigs({ feedBehindMs: 400 * DAY_MS, speed: 1 });

describe('liveSessionClock', () => {
  it('reads the venue estimate and never goes back when the estimate is corrected', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 2 ** 42 }), { minLength: 1, maxLength: 50 }),
        (estimates) => {
          const queue = [...estimates];
          const clock = liveSessionClock({ now: () => queue.shift() ?? 0 });
          const read = estimates.map(() => clock());
          expect(read).toEqual(estimates.map((_, i) => Math.max(...estimates.slice(0, i + 1))));
        },
      ),
    );
  });
});

describe('a live session against a venue replaying an older recording at real time', () => {
  it('stamps its start, end and equity on the venue’s clock, which its fills carry, and reads the statements without a refusal', async () => {
    const rig = await newRig();
    const outcome = await rig.run({
      strategies: `  - { id: buy, use: ${JSON.stringify(BUY_ONCE)}, params: { sym: ${SESSION_SYM}, qty: 0.001 } }`,
      durationSec: 3,
    });
    const json = JSON.parse(readFileSync(outcome.outputs.json, 'utf8')) as {
      metrics: { start: number; end: number };
      equityCurve: { ts: number }[];
      fills: { timestamp: number }[];
      meta: { warnings?: string[] };
    };
    const venueDays = (ts: number) => Math.round((Date.now() - ts) / DAY_MS);
    const { start, end } = json.metrics;
    expect([venueDays(start), venueDays(end)]).toEqual([400, 400]);
    expect(json.equityCurve.filter((point) => venueDays(point.ts) !== 400)).toEqual([]);
    expect(json.fills).toHaveLength(1);
    // The venue's time is learnt from its Date header, to the second.
    const fillAt = json.fills[0]?.timestamp ?? 0;
    const within = fillAt >= start - DATE_GRAIN_MS && fillAt <= end + DATE_GRAIN_MS;
    expect(within, `fill at ${fillAt} within [${start}, ${end}]`).toBe(true);
    expect((json.meta.warnings ?? []).filter((w) => /statement|clock/.test(w))).toEqual([]);
  }, 60_000);
});

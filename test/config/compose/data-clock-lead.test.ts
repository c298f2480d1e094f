import { resolve } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { DATA_CLOCK_LEAD_WARN_MS, DataClockLead } from '../../../config/compose/data-clock-lead.ts';
import type { MarketEvent } from '../../../core/model/index.ts';
import { liveSessionRigs, SESSION_SYM } from '../../kit/live-session-rig.ts';

const BUY_ONCE = resolve('test/config/fixtures/buy-once-plugin.ts');
// The feed starts two minutes ahead of the machine's clock (a sped-up replay some minutes in).
const newRig = liveSessionRigs({ feedBehindMs: -120_000 });
// The same feed released by hand: the venue's Date header stays the machine's clock, two minutes
// behind its data (a venue whose data and clock disagree).
const newManualRig = liveSessionRigs({ feedBehindMs: -120_000, pacing: { mode: 'manual' } });

/** A quote stamped `ts` by the venue. */
const quoteAt = (ts: number): MarketEvent =>
  ({
    kind: 'quote',
    sym: SESSION_SYM,
    ts,
    recvTs: ts,
    bid: 1,
    bidQty: 1,
    ask: 2,
    askQty: 1,
  }) as MarketEvent;

/** A venue clock estimate stopped at `now`. */
const venueClockAt = (now: number) => ({ now: () => now });

describe('the venue data clock running ahead of the venue’s own clock', () => {
  it('warns once in the log, and in the result with the largest lead, past a few seconds only', () => {
    const lines: Array<{ msg: string }> = [];
    const lead = new DataClockLead(
      pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line)) }),
      venueClockAt(1_000_000),
    );
    lead.observe(quoteAt(1_000_000 + DATA_CLOCK_LEAD_WARN_MS));
    lead.observe(quoteAt(1_000_000 - 3_600_000));
    expect(lead.warnings()).toEqual([]);
    lead.observe(quoteAt(1_060_000));
    lead.observe(quoteAt(1_120_000));
    lead.observe(quoteAt(1_030_000));
    expect(lines).toHaveLength(1);
    expect(lead.warnings()).toEqual([
      expect.stringMatching(
        /ran ahead of the venue's own clock .*by up to 120 s: the fills, orders and trades/,
      ),
    ]);
  });

  it('is not named in the result of a live session against a sped-up paper venue: its Date header, and so the session, follow its replay', async () => {
    const rig = await newRig();
    const outcome = await rig.run({
      strategies: `  - { id: buy, use: ${JSON.stringify(BUY_ONCE)}, params: { sym: ${SESSION_SYM}, qty: 0.001 } }`,
      durationSec: 3,
    });
    const warnings = outcome.result.meta.warnings ?? [];
    expect(warnings.filter((w) => w.includes('ran ahead') || w.includes('real time'))).toEqual([]);
    // The session's start and end are on the venue's clock, 5x real time: its 3 s span ~15 s of it.
    const { start, end } = outcome.result.metrics;
    expect(end - start).toBeGreaterThan(10_000);
    const fills = [...outcome.result.fills].map((fill) => fill.timestamp);
    expect(fills.filter((ts) => ts < start - 5_000 || ts > end + 5_000)).toEqual([]);
  }, 60_000);

  it('is named in the result of a live session against a venue whose data runs ahead of its Date header', async () => {
    const rig = await newManualRig();
    const release = setInterval(() => rig.venue.feed.step(20), 100);
    try {
      const outcome = await rig.run({
        strategies: `  - { id: buy, use: ${JSON.stringify(BUY_ONCE)}, params: { sym: ${SESSION_SYM}, qty: 0.001 } }`,
        durationSec: 3,
      });
      const warnings = (outcome.result.meta.warnings ?? []).filter((w) => w.includes('ran ahead'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/by up to 1\d\d s/);
    } finally {
      clearInterval(release);
    }
  }, 60_000);
});

import { resolve } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { DATA_CLOCK_LEAD_WARN_MS, DataClockLead } from '../../../config/compose/data-clock-lead.ts';
import type { MarketEvent } from '../../../core/model/index.ts';
import { liveSessionRigs, SESSION_SYM } from '../../kit/live-session-rig.ts';

const BUY_ONCE = resolve('test/config/fixtures/buy-once-plugin.ts');
// The feed starts two minutes ahead of the machine's clock (a sped-up replay some minutes in).
const newRig = liveSessionRigs({ feedBehindMs: -120_000 });

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

describe('the venue data clock running ahead of a live session’s', () => {
  it('warns once in the log, and in the result with the largest lead, past a few seconds only', () => {
    const lines: Array<{ msg: string }> = [];
    const lead = new DataClockLead(
      pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line)) }),
    );
    lead.observe(quoteAt(1_000_000 + DATA_CLOCK_LEAD_WARN_MS), 1_000_000);
    lead.observe(quoteAt(1_000_000 - 3_600_000), 1_000_000);
    expect(lead.warning()).toBeUndefined();
    lead.observe(quoteAt(1_060_000), 1_000_000);
    lead.observe(quoteAt(1_120_000), 1_000_000);
    lead.observe(quoteAt(1_030_000), 1_000_000);
    expect(lines).toHaveLength(1);
    expect(lead.warning()).toMatch(
      /ran ahead of this machine's clock .*by up to 120 s: the fills, orders and trades/,
    );
  });

  it('is named in the result of a live session against a venue whose replay ran ahead of real time', async () => {
    const rig = await newRig();
    const outcome = await rig.run({
      strategies: `  - { id: buy, use: ${JSON.stringify(BUY_ONCE)}, params: { sym: ${SESSION_SYM}, qty: 0.001 } }`,
      durationSec: 3,
    });
    const warnings = (outcome.result.meta.warnings ?? []).filter((w) => w.includes('ran ahead'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/by up to \d+ s/);
  }, 60_000);
});

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { instrumentSpecsOf } from '../../../config/compose/instrument-specs.ts';
import { loadValidConfig } from '../../../config/loader/index.ts';
import { defineStrategy, type TrailingStop } from '../../../core/kernel/index.ts';
import { lockstepSyntheticVenues, runLockstepSession } from '../../kit/lockstep-synthetic-sessions.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const SYM = 'BINANCE_PERP_BTC_USDT';
const newDir = tempDirsRemovedAfterEach('keel-paper-trailing-');
const startVenue = lockstepSyntheticVenues();

describe('a paper session with an emulated trailing stop', () => {
  it('runs the same kernel emulation over the venue protocol: the stop triggers, its MARKET order reaches the venue under its reference, and the session result lists the stop', async () => {
    const dir = newDir();
    const file = join(dir, 'trail.yaml');
    const json = join(dir, 'result.json');
    writeFileSync(
      file,
      `mode: paper
instruments: [${SYM}]
strategies:
  - { id: trail, use: market-maker }
paper: { lockstep: true, source: { kind: synthetic, seed: 42 } }
logging: { level: error }
report: { json: ${JSON.stringify(json)}, html: ${JSON.stringify(join(dir, 'report.html'))} }
`,
    );
    const loaded = loadValidConfig(file);
    const instruments = instrumentSpecsOf(loaded.config.instruments);
    const venue = await startVenue(instruments, SYM);
    const seen: TrailingStop[] = [];
    // A 1-tick SELL stop on the bid, allowed to open a short: the first downtick of the bid fires it.
    const trail = defineStrategy<Record<string, never>, { placed: boolean }>({
      name: 'trail',
      params: z.object({}),
      state: () => ({ placed: false }),
      onQuote: (ctx) => {
        if (ctx.state.placed) return undefined;
        ctx.state.placed = true;
        return ctx.order.trailingStop({
          sym: SYM,
          side: 'SELL',
          qty: '0.01',
          offset: { ticks: 1 },
          triggerOn: 'bidAsk',
          reduceOnly: false,
          ref: 'paper-trail-1',
        });
      },
      onTrailingStop: (_ctx, stop) => {
        seen.push(stop);
      },
    });
    const outcome = await runLockstepSession(venue, {
      config: loaded.config,
      instruments,
      slots: [{ id: 'trail', strategy: trail }],
      name: 'trailing-test',
      durationMs: 3_000,
    });
    expect(outcome.exitCode).toBe(0);
    expect(seen.map((s) => s.status)).toEqual(['PENDING', 'ACTIVE', 'TRIGGERED']);
    const triggered = seen[2] as TrailingStop;
    // It fired on a bid at or under the stop it had.
    expect(triggered.crossPrice).toBeLessThanOrEqual(triggered.stopPrice?.toNumber() ?? Number.NaN);
    expect([...outcome.fills].some((f) => f.clientOrderId === 'paper-trail-1' && f.side === 'SELL')).toBe(
      true,
    );
    const stops = outcome.result.trailingStops ?? [];
    expect(stops.map((s) => `${s.ref} ${s.status} ${s.steps.length}`)).toEqual(['paper-trail-1 TRIGGERED 3']);
    const written = JSON.parse(readFileSync(json, 'utf8')) as { trailingStops?: { ref: string }[] };
    expect(written.trailingStops?.map((s) => s.ref)).toEqual(['paper-trail-1']);
    expect(readFileSync(json.replace(/\.json$/, '.trailing-stops.csv'), 'utf8')).toContain(
      ',paper-trail-1,trail,',
    );
  }, 30_000);
});

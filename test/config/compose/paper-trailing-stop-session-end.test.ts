import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { instrumentSpecsOf } from '../../../config/compose/instrument-specs.ts';
import { loadValidConfig } from '../../../config/loader/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { lockstepSyntheticVenues, runLockstepSession } from '../../kit/lockstep-synthetic-sessions.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const SYM = 'BINANCE_PERP_BTC_USDT';
const newDir = tempDirsRemovedAfterEach('keel-paper-trailing-end-');
const startVenue = lockstepSyntheticVenues();

describe('a paper session that stops with an emulated trailing stop still trailing', () => {
  it('ends the stop (CANCELLED, runEnded), warns that the position it protected is unprotected, and says so next to what was left open on the venue', async () => {
    const dir = newDir();
    const file = join(dir, 'trail.yaml');
    writeFileSync(
      file,
      `mode: paper
instruments: [${SYM}]
strategies:
  - { id: guard, use: market-maker }
paper: { lockstep: true, source: { kind: synthetic, seed: 42 } }
logging: { level: error }
shutdown: { cancelAllOrders: false }
report: { json: ${JSON.stringify(join(dir, 'result.json'))}, html: ${JSON.stringify(join(dir, 'report.html'))} }
`,
    );
    const loaded = loadValidConfig(file);
    const instruments = instrumentSpecsOf(loaded.config.instruments);
    const venue = await startVenue(instruments, SYM);
    // A long protected by a stop 50 % under the bid: it never fires in a 3 s session.
    const guard = defineStrategy<Record<string, never>, { placed: boolean }>({
      name: 'guard',
      params: z.object({}),
      state: () => ({ placed: false }),
      onQuote: (ctx) => {
        if (ctx.state.placed) return undefined;
        ctx.state.placed = true;
        return [
          ctx.order.market({ sym: SYM, side: 'BUY', qty: '0.01' }),
          ctx.order.trailingStop({
            sym: SYM,
            side: 'SELL',
            qty: '0.01',
            offset: { bps: 5000 },
            ref: 'guard-trail-1',
          }),
        ];
      },
    });
    const outcome = await runLockstepSession(venue, {
      config: loaded.config,
      instruments,
      slots: [{ id: 'guard', strategy: guard }],
      name: 'trailing-end-test',
      durationMs: 3_000,
    });
    const stops = outcome.result.trailingStops ?? [];
    expect(stops.map((s) => `${s.ref} ${s.status} ${s.cancelReason}`)).toEqual([
      'guard-trail-1 CANCELLED runEnded',
    ]);
    const warned = (outcome.result.meta.warnings ?? []).filter((w) => w.includes('guard-trail-1'));
    expect(warned).toEqual([
      `trailing stop guard-trail-1 of strategy guard (SELL 0.01 ${SYM}, ACTIVE when the session stopped) ended with the session (CANCELLED, runEnded): Keel emulated it, it is not on the venue: the position it protected, ${SYM} 0.01, is unprotected (a restarted session does not take the stop back)`,
    ]);
    expect(outcome.notes).toContain(
      'ended with the session, not on the venue (Keel emulated them): 1 trailing stop (guard-trail-1); the positions they protected are unprotected',
    );
  }, 30_000);
});

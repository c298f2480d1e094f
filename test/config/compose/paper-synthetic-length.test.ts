import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loggedRecordingDamage } from '../../../config/compose/logged-recording-damage.ts';
import { paperFeedOf } from '../../../config/compose/paper-run.ts';
import { runConfiguredSession } from '../../../config/compose/session-run.ts';
import { formatConfigProblem, loadConfig, loadValidConfig } from '../../../config/loader/index.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const newDir = tempDirsRemovedAfterEach('keel-synthetic-length-');
const MINUTE = 60_000;

/**
 * A lockstep paper config of the market maker on `seconds` of SYNTHETIC BTC data, with no
 * wall-clock bound: the market's end is the session's.
 */
const paperConfig = (dir: string, speed: number, seconds: number) => `mode: paper
instruments: [BINANCE_PERP_BTC_USDT]
strategies:
  - id: mm
    use: market-maker
    params: { sym: BINANCE_PERP_BTC_USDT, qty: 0.01, halfSpreadTicks: 10, maxPosition: 0.05, requoteTicks: 20 }
paper:
  lockstep: true
  speed: ${speed}
  source: { kind: synthetic, seed: 7, durationSec: ${seconds} }
  fillModel: touch
logging: { level: silent }
metrics: { enabled: false }
report: { json: ${JSON.stringify(join(dir, 'result.json'))}, html: ${JSON.stringify(join(dir, 'report.html'))} }
`;

describe('paper.source.durationSec: a SYNTHETIC paper source of a set length in market time', () => {
  it('counts from the first minute of the start: 150 s begun at 14:30:20 end by 14:32:30, their bars closed at 14:31 and 14:32', async () => {
    const dir = newDir();
    const file = join(dir, 'paper.yaml');
    writeFileSync(file, paperConfig(dir, 1, 150));
    const loaded = loadValidConfig(file);
    const startTime = Date.UTC(2026, 0, 5, 14, 30, 20);
    const { paper } = loaded.config;
    if (paper === undefined) throw new Error('no paper section');
    const { feed } = await paperFeedOf(paper, loaded, startTime, loggedRecordingDamage({ warn: () => {} }));
    const source = feed();
    const times: number[] = [];
    const barCloses: number[] = [];
    for (let next = await source.next(); next.done !== true; next = await source.next()) {
      times.push(next.value.event.recvTs);
      if (next.value.event.kind === 'bar') barCloses.push(next.value.event.recvTs);
    }
    const start = Date.UTC(2026, 0, 5, 14, 30);
    expect(times.length).toBeGreaterThan(100);
    expect(Math.max(...times)).toBeLessThanOrEqual(start + 150_000);
    expect(Math.max(...times)).toBeGreaterThan(start + 140_000);
    expect([...new Set(barCloses)]).toEqual([start + MINUTE, start + 2 * MINUTE]);
  });

  it('stops a lockstep session after the same market whatever its pace: the same events and fills at speed 100 as unpaced', async () => {
    const session = async (speed: number) => {
      const dir = newDir();
      const file = join(dir, 'paper.yaml');
      writeFileSync(file, paperConfig(dir, speed, 60));
      const loaded = loadConfig(file);
      if (!loaded.ok) throw new Error(loaded.problems.map(formatConfigProblem).join('\n'));
      const outcome = await runConfiguredSession(loaded, { handleSignals: false });
      if (!outcome.ok) throw new Error(outcome.problems.join('\n'));
      const first = outcome.result.equityCurve[0]?.ts ?? 0;
      return {
        stoppedBy: outcome.result.meta.runConfig.stoppedBy,
        events: outcome.events,
        fills: [...outcome.fills].map(
          (f) => `${f.side} ${f.quantity.toFixed()} @ ${f.price.toFixed()} +${f.timestamp - first}ms`,
        ),
        endEquity: outcome.endEquity.toFixed(),
      };
    };
    // At most 100 times the wall clock, a minute of market takes 0.6 s or more; unpaced, as long
    // as the machine needs: a wall-clock bound would cut the two at different points of the market.
    const paced = await session(100);
    const unpaced = await session(1_000_000);
    expect(paced.stoppedBy).toBe('ended');
    expect(paced.fills.length).toBeGreaterThan(3);
    expect(unpaced).toEqual(paced);
  }, 60_000);
});

import { describe, expect, it } from 'vitest';
import { heldCommandWaitOf } from '../../../config/compose/held-command-wait.ts';
import { formatConfigProblem } from '../../../config/loader/index.ts';
import type { KeelConfig } from '../../../config/schema/index.ts';
import { liveConfigWith, liveYamlWith, parseLiveYaml } from '../../kit/config-texts.ts';
import { connectTestVenue } from '../../kit/venue-session-connection.ts';

const RULE = 'must be a whole number of ms from 1000 (1 s) to 60000 (1 min)';

describe('venue.heldCommandWaitMs: how long a modify or cancel waits for its order’s ack', () => {
  it('is 10 s unless the config says otherwise, and reaches the live venue’s options', () => {
    expect(liveConfigWith().venue?.heldCommandWaitMs).toBe(10_000);
    expect(heldCommandWaitOf(liveConfigWith())).toEqual({ heldCommandWaitMs: 10_000 });
    expect(heldCommandWaitOf(liveConfigWith('  heldCommandWaitMs: 3000'))).toEqual({
      heldCommandWaitMs: 3_000,
    });
  });

  it('defaults to twice privateRequestTimeoutMs, within 10 s and 1 min, so a late ack still comes first', () => {
    expect(liveConfigWith('  privateRequestTimeoutMs: 8000').venue?.heldCommandWaitMs).toBe(16_000);
    expect(liveConfigWith('  privateRequestTimeoutMs: 2000').venue?.heldCommandWaitMs).toBe(10_000);
    expect(liveConfigWith('  privateRequestTimeoutMs: 45000').venue?.heldCommandWaitMs).toBe(60_000);
  });

  it('leaves the client its default without a venue section (the embedded paper venue)', () => {
    expect(heldCommandWaitOf({} as Pick<KeelConfig, 'venue'>)).toEqual({});
  });

  it.each([
    ['0', RULE],
    ['999', RULE],
    ['60001', RULE],
    ['2500.5', 'must be a whole number, not the number 2500.5'],
    ['later', 'must be a number, not the string "later"'],
  ])('refuses %s in one sentence that says why, at the value’s YAML path and line', (value, why) => {
    const text = liveYamlWith(`  heldCommandWaitMs: ${value}`);
    const result = parseLiveYaml(text);
    expect(result.ok ? [] : result.problems.map(formatConfigProblem)).toEqual([
      `✖ venue.heldCommandWaitMs ${why} → at venue.heldCommandWaitMs (live.yaml:6:22)`,
    ]);
  });

  it('reaches the execution client of a session’s venue connection', async () => {
    const live = connectTestVenue(liveConfigWith('  heldCommandWaitMs: 3000'));
    await live.stop(0);
    expect(live.execution.heldCommandWaitMs).toBe(3_000);
  });
});

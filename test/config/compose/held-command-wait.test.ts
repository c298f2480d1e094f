import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { heldCommandWaitOf } from '../../../config/compose/held-command-wait.ts';
import { connectVenueSession } from '../../../config/compose/venue-session-connection.ts';
import type { VenueSessionOptions } from '../../../config/compose/venue-session-options.ts';
import { formatConfigProblem } from '../../../config/loader/index.ts';
import type { KeelConfig } from '../../../config/schema/index.ts';
import { liveConfigWith, liveYamlWith, parseLiveYaml } from '../../kit/config-texts.ts';

const RULE = 'must be a whole number of ms from 1000 (1 s) to 60000 (1 min)';

describe('venue.heldCommandWaitMs: how long a modify or cancel waits for its order’s ack', () => {
  it('is 10 s unless the config says otherwise, and reaches the live venue’s options', () => {
    expect(liveConfigWith().venue?.heldCommandWaitMs).toBe(10_000);
    expect(heldCommandWaitOf(liveConfigWith())).toEqual({ heldCommandWaitMs: 10_000 });
    expect(heldCommandWaitOf(liveConfigWith('  heldCommandWaitMs: 3000'))).toEqual({
      heldCommandWaitMs: 3_000,
    });
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
    const options = {
      config: liveConfigWith('  heldCommandWaitMs: 3000'),
      instruments: [],
      lockstep: false,
      logger: pino({ level: 'silent' }),
      venue: {
        restUrl: 'http://127.0.0.1:9',
        privateWsUrl: 'ws://127.0.0.1:9/v1/private',
        marketDataWsUrl: 'ws://127.0.0.1:9/marketdata/v2/public',
        apiKey: 'k',
        apiSecret: 's',
        brokerClientId: 'main',
        label: 'test venue',
      },
    } as unknown as VenueSessionOptions;
    const { live } = connectVenueSession({
      options,
      recorder: undefined,
      stopping: () => false,
      kernel: () => {
        throw new Error('no kernel in this test');
      },
    });
    await live.stop(0);
    expect(live.execution.heldCommandWaitMs).toBe(3_000);
  });
});

import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { signatureArraysOf } from '../../../config/compose/signature-arrays.ts';
import { connectVenueSession } from '../../../config/compose/venue-session-connection.ts';
import type { VenueSessionOptions } from '../../../config/compose/venue-session-options.ts';
import { formatConfigProblem } from '../../../config/loader/index.ts';
import type { KeelConfig } from '../../../config/schema/index.ts';
import { liveConfigWith, liveYamlWith, parseLiveYaml } from '../../kit/config-texts.ts';

describe('venue.signing.arrays: how array parameters are written into the REST signature', () => {
  it('joins them with commas unless the config says otherwise, and reaches the live venue’s options', () => {
    expect(liveConfigWith().venue?.signing.arrays).toBe('comma');
    expect(signatureArraysOf(liveConfigWith())).toEqual({ signatureArrays: 'comma' });
    expect(signatureArraysOf(liveConfigWith('  signing: { arrays: json }'))).toEqual({
      signatureArrays: 'json',
    });
    expect(signatureArraysOf(liveConfigWith('  signing: { arrays: brackets }'))).toEqual({
      signatureArrays: 'brackets',
    });
  });

  it('leaves the client its default without a venue section (the embedded paper venue)', () => {
    expect(signatureArraysOf({} as Pick<KeelConfig, 'venue'>)).toEqual({});
  });

  it('refuses an encoding it does not know', () => {
    const result = parseLiveYaml(liveYamlWith('  signing: { arrays: semicolon }'));
    expect(result.ok ? [] : result.problems.map(formatConfigProblem).join('\n')).toContain(
      'venue.signing.arrays',
    );
  });

  it('reaches the REST client of a session’s venue connection', async () => {
    const options = {
      config: liveConfigWith('  signing: { arrays: json }'),
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
    expect(live.rest.signatureArrays).toBe('json');
  });
});

import { describe, expect, it } from 'vitest';
import { signatureArraysOf } from '../../../config/compose/signature-arrays.ts';
import { formatConfigProblem } from '../../../config/loader/index.ts';
import type { KeelConfig } from '../../../config/schema/index.ts';
import { liveConfigWith, liveYamlWith, parseLiveYaml } from '../../kit/config-texts.ts';
import { connectTestVenue } from '../../kit/venue-session-connection.ts';

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
    const live = connectTestVenue(liveConfigWith('  signing: { arrays: json }'));
    await live.stop(0);
    expect(live.rest.signatureArrays).toBe('json');
  });
});

import { describe, expect, it } from 'vitest';
import {
  type ConfigParseResult,
  formatConfigProblem,
  parseConfigText,
} from '../../../config/loader/index.ts';

const ENV = { KEEL_API_KEY: 'LIVEKEY_AAAA1111bbbb', KEEL_API_SECRET: 'SUPERSECRET_ZZZZ9999yyyy8888' };

/** A live config with `venue` lines after `restUrl` and `extra` top-level lines at the end. */
function liveConfig(venue: string, extra = ''): string {
  return `mode: live
venue:
  restUrl: https://venue.example
${venue}
instruments: [BINANCE_PERP_BTC_USDT]
strategies:
  - { id: mm, use: market-maker, params: { sym: BINANCE_PERP_BTC_USDT, qty: 0.001 } }
${extra}`;
}

const parse = (text: string): ConfigParseResult => parseConfigText(text, { file: 'live.yaml', env: ENV });
const lines = (result: ConfigParseResult): string[] =>
  result.ok ? [] : result.problems.map(formatConfigProblem);

describe('a venue credential stays at its path: no anchor carries it elsewhere', () => {
  it('refuses the secret anchored and aliased into name, at the anchor', () => {
    const result = parse(
      liveConfig(`  apiKey: \${KEEL_API_KEY}\n  apiSecret: &s \${KEEL_API_SECRET}`, 'name: *s\n'),
    );
    expect(result.ok).toBe(false);
    expect(lines(result)).toContainEqual(
      '✖ venue.apiSecret carries an anchor (&s); a venue credential may only be used at venue.apiSecret, so it and what holds it may not be anchored and aliased into other fields → at venue.apiSecret (live.yaml:5:17)',
    );
    expect(lines(result).join('\n')).not.toContain(ENV.KEEL_API_SECRET);
  });

  it('never quotes the secret in the problem of the field it was aliased into', () => {
    const result = parse(
      liveConfig(
        `  apiKey: \${KEEL_API_KEY}\n  apiSecret: &s \${KEEL_API_SECRET}`,
        'logging:\n  level: *s\n',
      ),
    );
    expect(result.ok).toBe(false);
    expect(lines(result).join('\n')).not.toContain(ENV.KEEL_API_SECRET);
  });

  it('refuses an anchor on the venue section, whose alias would copy both credentials', () => {
    const text = liveConfig(
      `  apiKey: \${KEEL_API_KEY}\n  apiSecret: \${KEEL_API_SECRET}`,
      'x: *v\n',
    ).replace('venue:', 'venue: &v');
    const result = parse(text);
    expect(result.ok ? [] : result.problems.map((problem) => problem.path.join('.'))).toContain('venue');
    expect(lines(result).join('\n')).not.toMatch(/SUPERSECRET|LIVEKEY/);
  });
});

describe('a venue credential is written in place, never taken from an anchor', () => {
  it('refuses a literal aliased into apiSecret, at the alias', () => {
    const result = parse(
      `name: &lit LITERALSECRET_inline_1234\n${liveConfig(`  apiKey: \${KEEL_API_KEY}\n  apiSecret: *lit`)}`,
    );
    expect(lines(result)).toContainEqual(
      `✖ venue.apiSecret is an alias (*lit); venue.apiSecret must be an \${ENV_VAR} reference written in place, not a value taken from elsewhere in the file → at venue.apiSecret (live.yaml:6:14)`,
    );
  });

  it('refuses a whole venue section aliased from elsewhere, whose credentials nobody checked', () => {
    const text = `x: &v { restUrl: "https://venue.example", apiKey: LITKEY_1234, apiSecret: LITSECRET_1234 }
mode: live
venue: *v
instruments: [BINANCE_PERP_BTC_USDT]
strategies:
  - { id: mm, use: market-maker, params: { sym: BINANCE_PERP_BTC_USDT, qty: 0.001 } }
`;
    const result = parse(text);
    expect(result.ok ? [] : result.problems.map((problem) => problem.path.join('.'))).toContain('venue');
  });
});

describe(`a venue credential is exactly one \${ENV_VAR} reference`, () => {
  it.each([
    ['a default, which is the secret written in the file', `\${UNSET_VAR:-LITERALSECRET_inline_1234}`],
    ['a default even when the variable is set', `\${KEEL_API_SECRET:-LITERALSECRET_inline_1234}`],
    [`an escaped \${ after the literal`, `"LITERALSECRET$\${"`],
    ['text around the reference', `LITERAL_\${KEEL_API_SECRET}`],
  ])('refuses %s', (_label, value) => {
    const result = parse(liveConfig(`  apiKey: \${KEEL_API_KEY}\n  apiSecret: ${value}`));
    expect(lines(result)).toEqual([
      `✖ venue.apiSecret must be exactly one \${ENV_VAR} reference, with no default and no text around it: either would be a credential written in the file → at venue.apiSecret (live.yaml:5:14)`,
    ]);
  });

  it('accepts the plain reference, quoted or not', () => {
    const result = parse(liveConfig(`  apiKey: "\${KEEL_API_KEY}"\n  apiSecret: \${KEEL_API_SECRET}`));
    expect(result.ok && result.config.venue?.apiSecret.reveal()).toBe(ENV.KEEL_API_SECRET);
    expect(result.ok && result.config.venue?.apiKey.reveal()).toBe(ENV.KEEL_API_KEY);
  });
});

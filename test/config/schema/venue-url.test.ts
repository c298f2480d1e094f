import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatConfigProblem, parseConfigText } from '../../../config/loader/index.ts';
import { venueUrlLabel } from '../../../config/schema/index.ts';
import { REDACTED } from '../../../core/model/index.ts';

/** A live config whose venue section has `urls` lines in place of restUrl. */
function liveConfig(urls: string): string {
  return `mode: live
venue:
${urls}
  apiKey: \${K}
  apiSecret: \${S}
instruments: [BINANCE_PERP_BTC_USDT]
strategies:
  - { id: mm, use: market-maker, params: { sym: BINANCE_PERP_BTC_USDT, qty: 0.001 } }
`;
}

const problemsOf = (urls: string): string[] => {
  const result = parseConfigText(liveConfig(urls), { file: 'live.yaml', env: { K: 'key-1', S: 'secret-1' } });
  return result.ok ? [] : result.problems.map(formatConfigProblem);
};

describe('venue URLs in a config', () => {
  it.each([
    ['restUrl', '  restUrl: https://proxyuser:PROXYPASS_1234@venue.example'],
    [
      'privateWsUrl',
      '  restUrl: https://venue.example\n  privateWsUrl: wss://u:PROXYPASS_1234@venue.example/v1/private',
    ],
    [
      'marketDataWsUrl',
      '  restUrl: https://venue.example\n  marketDataWsUrl: wss://PROXYPASS_1234@md.venue.example/ws',
    ],
  ])('refuse a user or password in venue.%s, at its line, without quoting it', (field, urls) => {
    const problems = problemsOf(urls);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      new RegExp(
        `^✖ venue\\.${field} may not name a user or password \\(user:pass@host\\).* → at venue\\.${field} \\(live\\.yaml:\\d+:\\d+\\)$`,
      ),
    );
    expect(problems[0]).not.toContain('PROXYPASS');
  });

  it('refuse a query on the REST base URL, which the REST transport would drop', () => {
    expect(problemsOf('  restUrl: https://venue.example/api?token=T0KEN_1234')).toEqual([
      '✖ venue.restUrl may not hold a query (?...) or fragment (#...): it is the base the API paths are appended to, and they would be dropped → at venue.restUrl (live.yaml:3:12)',
    ]);
  });

  it('keep a query on a WebSocket URL, which is sent as written', () => {
    expect(
      problemsOf('  restUrl: https://venue.example\n  marketDataWsUrl: wss://md.venue.example/ws?token=T'),
    ).toEqual([]);
  });
});

describe('a venue URL as Keel prints it', () => {
  it('is the URL itself when it has no query', () => {
    expect(venueUrlLabel('https://venue.example/api/')).toBe('https://venue.example/api/');
  });

  it('masks every query value and bare word, and drops a fragment', () => {
    expect(venueUrlLabel('wss://md.venue.example/ws?binary=false&token=abc&SECRETWORD#frag')).toBe(
      'wss://md.venue.example/ws?binary=[redacted]&token=[redacted]&[redacted]',
    );
  });

  it('never shows what stood in the query', () => {
    const word = fc.stringMatching(/^[A-Za-z0-9_%.-]{6,20}$/);
    fc.assert(
      fc.property(word, word, (key, token) => {
        // The whole query is compared: a token may equal its key or a part of '[redacted]'.
        const label = venueUrlLabel(`wss://md.venue.example/ws?${key}=${token}&x=1`);
        expect(label).toBe(`wss://md.venue.example/ws?${key}=${REDACTED}&x=${REDACTED}`);
      }),
    );
  });
});

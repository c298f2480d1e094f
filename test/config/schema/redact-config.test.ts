import { Writable } from 'node:stream';
import { inspect } from 'node:util';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { parseConfigText } from '../../../config/loader/index.ts';
import { LOG_REDACT_PATHS, redactConfig } from '../../../config/schema/index.ts';
import { LIVE_ENV, LIVE_YAML } from '../../kit/config-texts.ts';

function liveConfig() {
  const result = parseConfigText(LIVE_YAML, { file: 'live.yaml', env: LIVE_ENV });
  if (!result.ok) throw new Error('fixture must be valid');
  return result.config;
}

function expectNoSecret(text: string): void {
  expect(text).not.toContain(LIVE_ENV.T_KEY);
  expect(text).not.toContain(LIVE_ENV.T_SECRET);
}

describe('secret redaction', () => {
  it('keeps credentials out of the printed config', () => {
    const dump = stringify(redactConfig(liveConfig()));
    expectNoSecret(dump);
    expect(dump).toContain('apiSecret: "[redacted]"');
  });

  it('masks the query values of every venue URL in the printed config, as its labels do', () => {
    const text = LIVE_YAML.replace(
      '  restUrl: https://venue.test\n',
      '  restUrl: https://venue.test\n' +
        '  privateWsUrl: wss://venue.test/private?token=PVTOKEN_22\n' +
        '  marketDataWsUrl: wss://md.venue.test/ws?binary=false&token=MDTOKEN_333\n',
    );
    expect(text).toContain('MDTOKEN_333');
    const result = parseConfigText(text, { file: 'live.yaml', env: LIVE_ENV });
    if (!result.ok) throw new Error('fixture must be valid');
    const dump = stringify(redactConfig(result.config));
    expect(dump).not.toMatch(/PVTOKEN|MDTOKEN/);
    expect(dump).toContain('?token=[redacted]');
  });

  it('keeps credentials out of JSON and util.inspect of the raw config', () => {
    const config = liveConfig();
    expectNoSecret(JSON.stringify(config));
    expectNoSecret(inspect(config, { depth: 10 }));
    expectNoSecret(`${config.venue?.apiSecret}`);
  });

  it('keeps plain-string credentials out of pino logs through LOG_REDACT_PATHS', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const log = pino({ redact: [...LOG_REDACT_PATHS] }, sink);
    log.info({ venue: { apiKey: LIVE_ENV.T_KEY, apiSecret: LIVE_ENV.T_SECRET } }, 'connecting');
    log.info({ config: liveConfig() }, 'config');
    log.info({ login: { apiKey: LIVE_ENV.T_KEY } }, 'login');
    expect(lines).toHaveLength(3);
    expectNoSecret(lines.join(''));
  });

  it('writes decimals as their exact text', () => {
    const result = parseConfigText(
      `${LIVE_YAML}risk: { maxNotionalPerOrder: "0.1000000000000000000001" }\n`,
      {
        file: 'live.yaml',
        env: LIVE_ENV,
      },
    );
    if (!result.ok) throw new Error('fixture must be valid');
    expect(redactConfig(result.config)).toMatchObject({
      risk: { maxNotionalPerOrder: '0.1000000000000000000001' },
    });
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  commandOverrides,
  configForCommand,
  replayWindowOverrides,
} from '../../../config/cli/config-for-command.ts';
import { formatConfigProblem, parseConfigText } from '../../../config/loader/index.ts';
import { BACKTEST_YAML, LIVE_ENV, LIVE_YAML, replaceLine } from '../../kit/config-texts.ts';

describe("a command's overrides", () => {
  it('apply the --unsets first, then --from / --to, then the --sets', () => {
    expect(commandOverrides(['backtest.to'], ['a=1'], replayWindowOverrides(undefined, '5'))).toEqual([
      { unset: 'backtest.to', shownAs: '--unset backtest.to' },
      { set: 'backtest.to=5', shownAs: '--to 5' },
      'a=1',
    ]);
  });

  it('keep a --to typed next to an --unset of backtest.to', () => {
    const text = replaceLine(
      BACKTEST_YAML,
      '  fillModel: touch',
      '  fillModel: touch\n  to: 2025-01-02T00:00:00Z',
    );
    const overrides = commandOverrides(
      ['backtest.to'],
      [],
      replayWindowOverrides(undefined, '2025-01-03T00:00:00Z'),
    );
    const result = parseConfigText(text, { file: 'bt.yaml', env: {}, overrides });
    if (!result.ok) throw new Error(result.problems.map(formatConfigProblem).join('\n'));
    expect(result.config.backtest?.to).toBe(Date.UTC(2025, 0, 3));
  });
});

describe('a live command (keel run, keel record) on a config', () => {
  it('warns before it starts when the venue URL is clear text to another machine', () => {
    const dir = mkdtempSync(join(tmpdir(), 'keel-cleartext-'));
    try {
      const file = join(dir, 'live.yaml');
      writeFileSync(
        file,
        replaceLine(LIVE_YAML, '  restUrl: https://venue.test', '  restUrl: http://venue.test'),
      );
      writeFileSync(join(dir, '.env'), `T_KEY=${LIVE_ENV.T_KEY}\nT_SECRET=${LIVE_ENV.T_SECRET}\n`);
      let stderr = '';
      const io = { stdout: { write: () => true }, stderr: { write: (text: string) => (stderr += text) } };
      expect(configForCommand(io, 'run', file, [], ['live', 'paper'])).toBeDefined();
      expect(stderr).toBe(
        `⚠ venue.restUrl is http:// to venue.test, not https://: the API key, request signatures, orders and account data cross the network in clear text (${file}:3:12)\n`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

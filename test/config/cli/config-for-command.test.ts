import { describe, expect, it } from 'vitest';
import { commandOverrides, replayWindowOverrides } from '../../../config/cli/config-for-command.ts';
import { formatConfigProblem, parseConfigText } from '../../../config/loader/index.ts';
import { BACKTEST_YAML, replaceLine } from '../../kit/config-texts.ts';

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

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runConfiguredBacktest } from '../../../config/compose/backtest-run.ts';
import { importStrategyModule, strategySlots } from '../../../config/compose/strategy-plugins.ts';
import { formatConfigProblem, loadValidConfig } from '../../../config/loader/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'keel-plugins-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const PLUGIN = resolve('test/config/fixtures/buy-once-plugin.ts');
const SESSION = resolve('backtest/sessions/example-synthetic.jsonl.gz');

function configWith(use: string, params: string): string {
  const file = join(dir, `c${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(
    file,
    `mode: backtest
instruments: [BINANCE_PERP_BTC_USDT]
strategies:
  - id: plugin
    use: ${use}
    params: ${params}
backtest:
  recordings: [${SESSION}]
  startingCash: { USDT: 100000 }
  fillModel: touch
  closeAtEnd: false
`,
  );
  return file;
}

describe('strategy plugins', () => {
  it('imports a .ts module by path and runs its default-exported strategy in a backtest', async () => {
    const loaded = loadValidConfig(configWith(PLUGIN, '{ sym: BINANCE_PERP_BTC_USDT, qty: 0.01 }'));
    const slots = await strategySlots(loaded);
    if (!slots.ok) throw new Error(slots.problems.map(formatConfigProblem).join('\n'));
    expect(slots.slots[0]?.strategy.name).toBe('buy-once');
    const result = await runConfiguredBacktest(loaded, { slots: slots.slots });
    expect([...result.fills].map((f) => `${f.side} ${f.quantity}`)).toEqual(['BUY 0.01']);
  }, 60_000);

  it("checks the plugin's params with its own schema and says where", async () => {
    const loaded = loadValidConfig(configWith(PLUGIN, '{ sym: BINANCE_PERP_BTC_USDT, qty: -1 }'));
    const slots = await strategySlots(loaded);
    expect(slots.ok ? [] : slots.problems.map(formatConfigProblem)).toEqual([
      expect.stringMatching(/qty .*→ at strategies\[0\]\.params\.qty \(.*:6:\d+\)/),
    ]);
  });

  it('names a module that does not exist, at the use line', async () => {
    const loaded = loadValidConfig(configWith('./missing-plugin.ts', '{}'));
    const slots = await strategySlots(loaded);
    expect(slots.ok ? [] : slots.problems.map(formatConfigProblem)).toEqual([
      expect.stringMatching(/missing-plugin\.ts does not exist → at strategies\[0\]\.use \(.*:5:\d+\)/),
    ]);
  });

  it('hints at ES imports when a CommonJS plugin cannot require what Keel provides', async () => {
    const sub = mkdtempSync(join(dir, 'cjs-'));
    const file = join(sub, 'plugin.js');
    writeFileSync(file, "const { z } = require('zod');\nmodule.exports = z;\n");
    await expect(importStrategyModule(file)).rejects.toThrow(
      /failed to load: plugins are ES modules: write import \{ z \} from 'zod'[\s\S]*\(Node: Cannot find module 'zod'/,
    );
  });

  it('says where in the plugin its module threw while loading, as a hook throw is reported', async () => {
    const sub = mkdtempSync(join(dir, 'throws-'));
    const file = join(sub, 'throws-at-load.ts');
    writeFileSync(
      file,
      "const key = '';\nif (key === '') throw new TypeError('no API key');\nexport default 1;\n",
    );
    await expect(importStrategyModule(file)).rejects.toThrow(
      /throws-at-load\.ts failed to load: TypeError: no API key \(at .*throws-at-load\.ts:2:\d+\)$/,
    );
  });

  it("hints at 'keel' when a plugin copied out of the repository imports Keel's source by path", async () => {
    const sub = mkdtempSync(join(dir, 'copied-'));
    const file = join(sub, 'first-strategy.ts');
    writeFileSync(
      file,
      "import { defineStrategy } from '../../core/kernel/index.ts';\nexport default defineStrategy;\n",
    );
    await expect(importStrategyModule(file)).rejects.toThrow(
      /failed to load: outside Keel's repository import the strategy API as 'keel'.* \(Node: .*core\/kernel\/index\.ts' imported from /,
    );
  });

  it('refuses a module that exports no strategy', async () => {
    const file = join(dir, 'not-a-strategy.ts');
    writeFileSync(file, 'export const answer = 42;\n');
    await expect(importStrategyModule(file)).rejects.toThrow(/exports no strategy/);
  });
});

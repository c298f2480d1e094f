import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedMessage } from '../../../../backtest/recording/index.ts';
import { EXIT } from '../../../../config/cli/index.ts';
import { keelInProcess } from '../../../kit/keel-in-process.ts';
import { writeRecording } from '../../../kit/recording-files.ts';

const TOKEN = 'WEBHOOK_TOKEN_5f4e3d2c1b';

// The reviewer's plugin: a strategy holding another service's token, given as an ${ENV_VAR}.
const NOTIFY = `import { z } from 'zod';
import { defineStrategy, secretParam } from '${process.cwd()}/core/kernel/index.ts';
export default defineStrategy({
  name: 'notify', description: 'does nothing, holds a webhook token',
  params: z.object({ sym: z.string(), webhookToken: secretParam() }),
  onStart: (ctx) => { if (ctx.params.webhookToken.reveal() !== '${TOKEN}') throw new Error('token lost'); },
});
`;
const config = (dir: string): string => `mode: backtest
instruments: [BINANCE_PERP_BTC_USDT]
strategies:
  - { id: n, use: ./notify.ts, params: { sym: BINANCE_PERP_BTC_USDT, webhookToken: "\${ALERT_WEBHOOK_TOKEN}" } }
backtest:
  recordings: [bars.jsonl]
  startingCash: { USDT: 1000 }
report: { json: ${dir}/out/r.json, html: ${dir}/out/r.html }
`;

/** One closed 1m KLINE of BINANCE_PERP_BTC_USDT. */
function bar(i: number): RecordedMessage {
  const openTime = 1_736_172_000_000 + i * 60_000;
  return {
    recvTs: openTime + 60_000,
    source: 'market-data',
    msg: {
      arg: { channel: 'KLINE', sym: 'BINANCE_PERP_BTC_USDT', interval: '1m' },
      data: {
        openTime,
        open: '95000',
        high: '95000',
        low: '95000',
        close: '95000',
        volume: '1',
        closed: true,
        ts: openTime + 60_000,
      },
    },
  };
}

describe('a plugin param declared with secretParam()', () => {
  const dir = mkdtempSync(join(tmpdir(), 'keel-secret-param-'));
  const file = join(dir, 'c.yaml');
  beforeAll(async () => {
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    writeFileSync(join(dir, 'notify.ts'), NOTIFY);
    writeFileSync(file, config(dir));
    writeFileSync(join(dir, '.env'), `ALERT_WEBHOOK_TOKEN=${TOKEN}\n`);
    await writeRecording(join(dir, 'bars.jsonl'), [bar(0), bar(1)]);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prints as [redacted] in keel validate --print', async () => {
    const run = await keelInProcess(['validate', file, '--print']);
    expect(run.code, run.stderr).toBe(EXIT.OK);
    expect(run.stdout).toContain('webhookToken: "[redacted]"');
    expect(run.stdout).not.toContain(TOKEN);
  });

  it("reaches the strategy, and is [redacted] in the result's meta.strategies params", async () => {
    const run = await keelInProcess(['backtest', file, '--no-progress']);
    expect(run.code, run.stderr).toBe(EXIT.OK);
    const text = readFileSync(join(dir, 'out/r.json'), 'utf8');
    expect(JSON.parse(text).meta.strategies[0].params).toEqual({
      sym: 'BINANCE_PERP_BTC_USDT',
      webhookToken: '[redacted]',
    });
    expect(text).not.toContain(TOKEN);
    expect(readFileSync(join(dir, 'out/r.html'), 'utf8')).not.toContain(TOKEN);
    expect(`${run.stdout}${run.stderr}`).not.toContain(TOKEN);
  });
});

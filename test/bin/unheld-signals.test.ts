import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../config/cli/exit-codes.ts';
import { tempDirsRemovedAfterAll } from '../kit/temp-dirs.ts';

const SLOW_IMPORT = resolve('test/config/fixtures/slow-import-plugin.ts');
const aTempDir = tempDirsRemovedAfterAll('keel-unheld-signals-');

describe('the keel launcher', () => {
  // Node's default action killed it by the signal, unannounced, for the seconds its start-up
  // takes, its exit hooks (which free run locks and spill files) not run.
  it('ends a keel signalled while it starts with the signal exit code and says so, instead of dying by it', async () => {
    const dir = aTempDir();
    const file = join(dir, 'paper.yaml');
    writeFileSync(
      file,
      `mode: paper
instruments: [BINANCE_PERP_BTC_USDT]
strategies:
  - { id: slow, use: ${JSON.stringify(SLOW_IMPORT)} }
paper: { source: { kind: synthetic } }
report: { json: ${JSON.stringify(join(dir, 'out/result.json'))} }
`,
    );
    const child = spawn(process.execPath, [resolve('bin/keel.js'), 'run', file], {
      env: { PATH: process.env.PATH ?? '' },
    });
    let stderr = '';
    const ended = await new Promise<{ code: number | null; signal: string | null }>((done) => {
      const limit = setTimeout(() => child.kill('SIGKILL'), 50_000);
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += String(chunk);
        if (stderr.includes('slow-import: loading\n')) child.kill('SIGTERM');
      });
      child.on('exit', (code, signal) => {
        clearTimeout(limit);
        done({ code, signal });
      });
    });
    expect(ended, stderr).toEqual({ code: EXIT.TERMINATED, signal: null });
    expect(stderr).toContain(
      '✖ keel run: SIGTERM with no graceful stop in place (starting up, or a second signal): ended at once\n',
    );
    expect(existsSync(join(dir, 'out/result.json'))).toBe(false);
  }, 60_000);
});

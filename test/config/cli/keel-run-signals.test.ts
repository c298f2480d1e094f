import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../config/cli/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'keel-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('keel run on paper', () => {
  it('stops gracefully on SIGINT: exit 130, recording and report written', async () => {
    const child = spawn(
      process.execPath,
      [
        resolve('bin/keel.js'),
        'run',
        'config/examples/market-maker-paper.yaml',
        '--set',
        `recording.path=${join(dir, 'session.jsonl.gz')}`,
        '--set',
        `report.json=${join(dir, 'result.json')}`,
        '--set',
        `report.html=${join(dir, 'report.html')}`,
      ],
      { env: { PATH: process.env.PATH ?? '' } },
    );
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += String(chunk);
    });
    await new Promise<void>((ready) => {
      const poll = setInterval(() => {
        if (/^fill /m.test(stdout)) {
          clearInterval(poll);
          ready();
        }
      }, 50);
    });
    const code = await new Promise<number | null>((done) => {
      child.once('exit', (c) => done(c));
      child.kill('SIGINT');
    });
    expect(code).toBe(EXIT.INTERRUPTED);
    expect(stdout).toContain('SYNTHETIC');
    expect(stdout).toMatch(/Session done: \d+ events, \d+ intents, \d+ fills/);
    expect(existsSync(join(dir, 'session.jsonl.gz'))).toBe(true);
    expect(existsSync(join(dir, 'report.html'))).toBe(true);
  }, 60_000);
});

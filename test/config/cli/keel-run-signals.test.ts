import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRecords } from '../../../backtest/recording/index.ts';
import { EXIT } from '../../../config/cli/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'keel-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface PaperRun {
  readonly child: ChildProcessWithoutNullStreams;
  readonly out: { stdout: string; stderr: string };
}

/** `keel run` of the paper example into `dir/<name>.*`, resolved once it printed its first fill. */
async function paperRunUntilFirstFill(name: string): Promise<PaperRun> {
  const child = spawn(
    process.execPath,
    [
      resolve('bin/keel.js'),
      'run',
      'config/examples/market-maker-paper.yaml',
      '--set',
      `recording.path=${join(dir, `${name}.jsonl.gz`)}`,
      '--set',
      `report.json=${join(dir, `${name}-result.json`)}`,
      '--set',
      `report.html=${join(dir, `${name}-report.html`)}`,
    ],
    { env: { PATH: process.env.PATH ?? '' } },
  );
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => {
    out.stdout += String(chunk);
  });
  child.stderr.on('data', (chunk: Buffer) => {
    out.stderr += String(chunk);
  });
  await new Promise<void>((ready) => {
    const poll = setInterval(() => {
      if (/^fill /m.test(out.stdout)) {
        clearInterval(poll);
        ready();
      }
    }, 50);
  });
  return { child, out };
}

describe('keel run on paper', () => {
  it('stops gracefully on SIGINT: exit 130, recording and report written', async () => {
    const { child, out } = await paperRunUntilFirstFill('graceful');
    const code = await new Promise<number | null>((done) => {
      child.once('exit', (c) => done(c));
      child.kill('SIGINT');
    });
    expect(code).toBe(EXIT.INTERRUPTED);
    expect(out.stdout).toContain('SYNTHETIC');
    expect(out.stdout).toMatch(/Session done: \d+ events, \d+ intents, \d+ fills/);
    expect(existsSync(join(dir, 'graceful.jsonl.gz'))).toBe(true);
    expect(existsSync(join(dir, 'graceful-report.html'))).toBe(true);
  }, 60_000);

  it('ends at once on a second SIGINT during the shutdown: exit 130, the recording saved, no result, and it says so', async () => {
    const { child, out } = await paperRunUntilFirstFill('forced');
    const code = await new Promise<number | null>((done) => {
      child.once('exit', (c) => done(c));
      child.kill('SIGINT');
      // The shutdown waits at least 200 ms for the venue's last replies: the second signal lands in it.
      setTimeout(() => child.kill('SIGINT'), 60);
    });
    expect(code).toBe(EXIT.INTERRUPTED);
    expect(out.stderr).toContain('second SIGINT: the paper session ends now, without its shutdown');
    expect(out.stdout).not.toMatch(/Session done/);
    expect(existsSync(join(dir, 'forced-result.json'))).toBe(false);
    let frames = 0;
    for await (const _ of readRecords(join(dir, 'forced.jsonl.gz'))) frames++;
    expect(frames).toBeGreaterThan(0);
  }, 60_000);
});

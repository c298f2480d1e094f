import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRecords } from '../../../backtest/recording/index.ts';
import { EXIT } from '../../../config/cli/index.ts';
import { paperRunUntilFirstFill } from '../../kit/keel-child-process.ts';

const dir = mkdtempSync(join(tmpdir(), 'keel-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('keel run on paper', () => {
  it('stops gracefully on SIGINT: exit 130, recording and report written', async () => {
    const { child, out } = await paperRunUntilFirstFill(dir, 'graceful');
    const code = await new Promise<number | null>((done) => {
      child.once('exit', (c) => done(c));
      child.kill('SIGINT');
    });
    expect(code).toBe(EXIT.INTERRUPTED);
    expect(out.stdout).toContain('SYNTHETIC');
    expect(out.stdout).toMatch(
      /Session done: \d+ events \(\d+ market data, \d+ User Data\), \d+ intents, \d+ fills/,
    );
    expect(existsSync(join(dir, 'graceful.jsonl.gz'))).toBe(true);
    expect(existsSync(join(dir, 'graceful-report.html'))).toBe(true);
  }, 60_000);

  it('stops gracefully on SIGHUP (its terminal or supervisor session closed): exit 129, report written', async () => {
    const { child, out } = await paperRunUntilFirstFill(dir, 'hangup');
    const code = await new Promise<number | null>((done) => {
      child.once('exit', (c) => done(c));
      child.kill('SIGHUP');
    });
    expect(code, out.stderr).toBe(EXIT.HANGUP);
    expect(out.stdout).toMatch(
      /Session done: \d+ events \(\d+ market data, \d+ User Data\), \d+ intents, \d+ fills/,
    );
    expect(out.stderr).toContain('"reason":"SIGHUP"');
    expect(existsSync(join(dir, 'hangup-report.html'))).toBe(true);
  }, 60_000);

  it('ends at once on a second SIGINT during the shutdown: exit 130, the recording saved, no result, and it says so', async () => {
    const { child, out } = await paperRunUntilFirstFill(dir, 'forced');
    const code = await new Promise<number | null>((done) => {
      // The shutdown waits at least 200 ms for the venue's last replies: a signal every 50 ms lands
      // in it. One second signal 60 ms after the first could reach a busy machine's process before
      // it handled the first, and two pending SIGINTs are one.
      const again = setInterval(() => child.kill('SIGINT'), 50);
      child.once('exit', (c) => {
        clearInterval(again);
        done(c);
      });
      child.kill('SIGINT');
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

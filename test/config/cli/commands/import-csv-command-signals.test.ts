import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirsRemovedAfterEach } from '../../../kit/temp-dirs.ts';

const newDir = tempDirsRemovedAfterEach('keel-import-csv-signals-');

/** A CSV of `rows` 1m bars: large enough that reading and writing it takes seconds. */
async function minuteBarsCsv(path: string, rows: number): Promise<void> {
  const out = createWriteStream(path);
  out.write('time,open,high,low,close,volume\n');
  const t0 = Date.UTC(2020, 0, 1);
  for (let i = 0; i < rows; i++) {
    const time = new Date(t0 + i * 60_000).toISOString().replace('.000Z', 'Z');
    if (!out.write(`${time},100.00,100.50,99.50,100.25,${i % 97}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/** Resolves once `dir` holds a file whose name starts with a dot: the staged recording. */
async function stagedFileIn(dir: string, deadline: number): Promise<void> {
  while (!readdirSync(dir).some((name) => name.startsWith('.'))) {
    if (Date.now() > deadline) throw new Error('the import never started writing its recording');
    await new Promise((done) => setTimeout(done, 50));
  }
}

describe('keel import-csv stopped by a signal', () => {
  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const)
    it(`on ${signal} while writing stops within a second or two, writes nothing, keeps the earlier file and exits ${code}`, async () => {
      const dir = newDir();
      const csv = join(dir, 'bars.csv');
      await minuteBarsCsv(csv, 400_000);
      const out = join(dir, 'out');
      mkdirSync(out);
      const earlier = join(out, 'bars.jsonl.gz');
      writeFileSync(earlier, 'an earlier import');
      const child = spawn(
        process.execPath,
        [resolve('bin/keel.js'), 'import-csv', csv, '--sym', 'BINANCE_PERP_BTC_USDT', '--out', earlier],
        { env: { PATH: process.env.PATH ?? '', KEEL_STATE_DIR: join(dir, 'state') } },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
      });
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
      });
      const exited = once(child, 'exit');
      await stagedFileIn(out, Date.now() + 60_000);
      const sent = Date.now();
      child.kill(signal);
      const [exitCode] = await exited;
      expect(Date.now() - sent).toBeLessThan(2_000);
      expect(exitCode).toBe(code);
      expect(stdout).not.toContain('✔');
      expect(stderr).toContain(`✖ keel import-csv: stopped by ${signal}; no recording written`);
      expect(readdirSync(out)).toEqual(['bars.jsonl.gz']);
      expect(readFileSync(earlier, 'utf8')).toBe('an earlier import');
    }, 90_000);
});

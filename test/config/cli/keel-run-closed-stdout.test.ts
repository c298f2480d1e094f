import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../../config/cli/index.ts';
import { reportOutputFlags } from '../../kit/keel-child-process.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const newDir = tempDirsRemovedAfterEach('keel-run-closed-stdout-');

describe('keel run whose stdout reader goes away (keel run ... | head -1)', () => {
  it('goes on to its graceful end: no EPIPE crash, the shutdown runs, and stderr says so once', async () => {
    const dir = newDir();
    const child = spawn(
      process.execPath,
      [
        resolve('bin/keel.js'),
        'run',
        'config/examples/market-maker-paper.yaml',
        '--duration',
        '4',
        '--set',
        `recording.path=${join(dir, 'rec.jsonl.gz')}`,
        ...reportOutputFlags(dir, 'run'),
      ],
      { env: { PATH: process.env.PATH ?? '' } },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += String(chunk);
    });
    // The reader takes the first line, then closes the pipe, as `head -1` does.
    child.stdout.once('data', () => child.stdout.destroy());
    const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const code = await new Promise<number | null>((done) => child.once('exit', (c) => done(c)));
    clearTimeout(killer);
    expect(stderr).not.toContain('EPIPE\n    at');
    expect(code, stderr).toBe(EXIT.OK);
    expect(stderr).toContain('"msg":"paper session ended"');
    expect(stderr.match(/keel: stdout is closed \(EPIPE\)/g)).toHaveLength(1);
  }, 90_000);
});

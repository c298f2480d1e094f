import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { envValueOf } from '../../../config/loader/index.ts';

describe('a variable given as a file (NAME_FILE, as Docker and Kubernetes mount secrets)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'keel-env-file-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("reads the file's content less one trailing line break, whatever the content", () => {
    const file = join(dir, 'secret');
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((text) => !/[\r\n]$/.test(text)),
        fc.constantFrom('', '\n', '\r\n'),
        (text, end) => {
          writeFileSync(file, text + end);
          expect(envValueOf({ S_FILE: file }, 'S')).toEqual({ value: text });
        },
      ),
    );
  });

  it('lets the variable itself win, and an empty one give way to the file', () => {
    const file = join(dir, 'secret');
    writeFileSync(file, 'from-file\n');
    expect(envValueOf({ S: 'from-env', S_FILE: file }, 'S')).toEqual({ value: 'from-env' });
    expect(envValueOf({ S: '', S_FILE: file }, 'S')).toEqual({ value: 'from-file' });
  });

  it('leaves an unset or empty variable as it is without a file', () => {
    expect(envValueOf({}, 'S')).toEqual({ value: undefined });
    expect(envValueOf({ S: '' }, 'S')).toEqual({ value: '' });
    expect(envValueOf({ S: '', S_FILE: '' }, 'S')).toEqual({ value: '' });
  });

  it('names the file it cannot read and why', () => {
    const missing = join(dir, 'nope');
    expect(envValueOf({ S_FILE: missing }, 'S')).toEqual({
      problem: `S is not set, and S_FILE names ${missing}, which cannot be read (ENOENT)`,
    });
    expect(envValueOf({ S_FILE: dir }, 'S')).toEqual({
      problem: `S is not set, and S_FILE names ${dir}, which cannot be read (EISDIR)`,
    });
  });
});

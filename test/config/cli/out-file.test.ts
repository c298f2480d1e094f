import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { outFileProblem } from '../../../config/cli/out-file.ts';
import { modeOf, POSIX_MODES } from '../../kit/file-modes.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const dir = tempDirsRemovedAfterAll('keel-out-file-')();

describe('an output file checked before the work that fills it', () => {
  it('makes its missing folders, as keel backtest does', () => {
    const file = join(dir, 'a', 'b', 'sweep.csv');
    expect(outFileProblem(file)).toBeUndefined();
    mkdirSync(join(dir, 'a', 'b'), { recursive: true });
    writeFileSync(file, 'old');
    expect(outFileProblem(file)).toBeUndefined();
  });

  it('says in one sentence why it cannot be written: a folder in its place, a file where a folder should be', () => {
    mkdirSync(join(dir, 'taken.csv'));
    expect(outFileProblem(join(dir, 'taken.csv'))).toBe(`${join(dir, 'taken.csv')} is a folder`);
    writeFileSync(join(dir, 'plain'), '');
    expect(outFileProblem(join(dir, 'plain', 'sweep.csv'))).toMatch(/^(ENOTDIR|EEXIST)[^\n]*$/);
  });

  it.skipIf(!POSIX_MODES)(
    'makes its missing folders 0700, as Keel makes every folder for its outputs',
    () => {
      expect(outFileProblem(join(dir, 'c', 'd', 'sweep.csv'))).toBeUndefined();
      expect([modeOf(join(dir, 'c')), modeOf(join(dir, 'c', 'd'))]).toEqual(['700', '700']);
    },
  );
});

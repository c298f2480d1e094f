import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { writeTextFilesTogether } from '../../../../backtest/report/index.ts';
import { commitTogether, type StagedFile } from '../../../../backtest/report/result/commit-together.ts';
import { stageTextFile } from '../../../../backtest/report/result/write-text-file.ts';
import { tempDirsRemovedAfterAll } from '../../../kit/temp-dirs.ts';

const aTempDir = tempDirsRemovedAfterAll('keel-together-');

/** The staged file with a move that fails as rename(2) does across devices (nothing checked before can foresee it). */
function failingMove(file: StagedFile): StagedFile {
  return {
    ...file,
    commit: async () => {
      throw Object.assign(new Error(`EXDEV: cross-device link not permitted, rename -> ${file.path}`), {
        code: 'EXDEV',
      });
    },
  };
}

describe('writeTextFilesTogether when a move into place fails', () => {
  it('stops before any move when a directory is where a file goes, naming it', async () => {
    const dir = aTempDir();
    const json = join(dir, 'r.json');
    const fills = join(dir, 'r.fills.csv');
    const html = join(dir, 'r.html');
    await writeFile(json, 'old json\n');
    await writeFile(html, 'old html\n');
    await mkdir(fills); // e.g. a user's tool left a directory where a CSV goes
    await expect(
      writeTextFilesTogether([
        [json, ['new json\n']],
        [fills, ['new fills\n']],
        [html, ['new html\n']],
      ]),
    ).rejects.toThrow(/r\.fills\.csv: a directory is where the file goes/);
    // Both must still be the previous run's, or both the new run's: never one of each.
    expect([await readFile(json, 'utf8'), await readFile(html, 'utf8')]).toEqual([
      'old json\n',
      'old html\n',
    ]);
    expect((await readdir(dir)).sort()).toEqual(['r.fills.csv', 'r.html', 'r.json']);
  });

  it('puts back the files already moved (commitTogether): each previous file, or none where there was none', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }),
        fc.nat(),
        async (existed, failAtSeed) => {
          const dir = aTempDir();
          const paths = existed.map((_, i) => join(dir, `f${i}.csv`));
          for (const [i, path] of paths.entries()) if (existed[i]) await writeFile(path, `old ${i}\n`);
          const before = (await readdir(dir)).sort();
          const failAt = failAtSeed % paths.length;
          const staged = await Promise.all(paths.map((path, i) => stageTextFile(path, [`new ${i}\n`])));
          await expect(
            commitTogether(staged.map((file, i) => (i === failAt ? failingMove(file) : file))),
          ).rejects.toThrow('EXDEV');
          await Promise.all(staged.map((file) => file.discard()));
          expect((await readdir(dir)).sort()).toEqual(before);
          for (const [i, path] of paths.entries())
            if (existed[i]) expect(await readFile(path, 'utf8')).toBe(`old ${i}\n`);
        },
      ),
      { numRuns: 40 },
    );
  });
});

import { describe, expect, it } from 'vitest';
import type { RecordCodec } from '../../../backtest/report/index.ts';
import { CreationOrderJournal } from '../../../backtest/runner/index.ts';
import { spillDirectoriesDisposedAfterEach } from '../../kit/temp-dirs.ts';

const aSpillDirectory = spillDirectoriesDisposedAfterEach('keel-test-creation-journal-');

/** Records as `id:state` lines, counting how many were encoded. */
function countingCodec(): { codec: RecordCodec<string>; encoded: () => number } {
  let count = 0;
  return {
    codec: {
      encode: (record) => {
        count++;
        return record;
      },
      decode: (line) => line,
    },
    encoded: () => count,
  };
}

describe('creation order journal', () => {
  it('encodes no record of a short run until its records are read, and each once then', () => {
    const { codec, encoded } = countingCodec();
    const journal = new CreationOrderJournal(aSpillDirectory(), 'things', codec.encode, codec, {
      keepInMemory: 8,
    });
    journal.update('a', 'a:open', false);
    journal.update('b', 'b:done', true);
    journal.update('a', 'a:done', true);
    journal.update('b', 'b:done again', false);
    const records = journal.finish();
    expect(encoded()).toBe(0);
    expect([...records]).toEqual(['a:done', 'b:done again']);
    expect([...records]).toEqual(['a:done', 'b:done again']);
    expect(encoded()).toBe(2);
  });

  it('writes its files once a run outgrows what it holds, and still gives every record in its last state', () => {
    const { codec } = countingCodec();
    const journal = new CreationOrderJournal(aSpillDirectory(), 'things', codec.encode, codec, {
      keepInMemory: 3,
      window: 2,
    });
    journal.update('a', 'a:open', false);
    journal.update('b', 'b:done', true);
    journal.update('c', 'c:done', true);
    journal.update('d', 'd:done', true);
    journal.update('c', 'c:done again', true);
    journal.update('e', 'e:done', true);
    journal.update('a', 'a:done', true);
    expect([...journal.finish()]).toEqual(['a:done', 'b:done', 'c:done again', 'd:done', 'e:done']);
  });

  it('refuses to give the records of a short run once its directory is disposed', () => {
    const { codec } = countingCodec();
    const dir = aSpillDirectory();
    const journal = new CreationOrderJournal(dir, 'things', codec.encode, codec);
    journal.update('a', 'a:done', true);
    const records = journal.finish();
    dir.dispose();
    expect(() => [...records]).toThrow(/disposed with its result/);
  });
});

import { appendFileSync, mkdirSync, readFileSync, renameSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  COMMAND_LOG_FILE,
  CommandLog,
  loggedAfter,
  savedJournal,
} from '../../../backtest/paper-venue/command-log.ts';
import { type JournalEntry, SNAPSHOT_FILE } from '../../../backtest/paper-venue/index.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const aDataDir = tempDirsRemovedAfterEach('command-log-');

const entry = (ref: string, at = 1): JournalEntry => ({
  at,
  portfolioId: 'main',
  command: 'placeOrder',
  params: { clientOrderId: ref },
  where: 'POST /api/v1/trading/order',
});

describe('paper venue command log', () => {
  it('gives back the entries appended after the snapshot, in order', () => {
    const dir = aDataDir();
    const log = new CommandLog(dir);
    log.append(entry('a'), 0);
    log.append(entry('b'), 1);
    log.append(entry('c', 2), 2);
    expect(loggedAfter(dir, 0)).toEqual([entry('a'), entry('b'), entry('c', 2)]);
    expect(loggedAfter(dir, 2)).toEqual([entry('c', 2)]);
    expect(loggedAfter(dir, 3)).toEqual([]);
  });

  it('is empty when no log was ever written, and a rewrite replaces it with a whole journal', () => {
    const dir = aDataDir();
    expect(loggedAfter(dir, 0)).toEqual([]);
    const log = new CommandLog(dir);
    log.append(entry('c'), 2);
    log.rewrite([entry('a'), entry('b'), entry('c')]);
    expect(loggedAfter(dir, 0)).toEqual([entry('a'), entry('b'), entry('c')]);
    log.append(entry('d'), 3);
    expect(loggedAfter(dir, 3)).toEqual([entry('d')]);
  });

  it('drops a last line cut short by a crash: its command was written before it ran, so it never ran', () => {
    const dir = aDataDir();
    new CommandLog(dir).append(entry('a'), 0);
    appendFileSync(join(dir, COMMAND_LOG_FILE), '{"index":1,"entry":{"at":1,"portf');
    expect(loggedAfter(dir, 0)).toEqual([entry('a')]);
  });

  it('leaves a torn last line as it is when it opens: only an append mends it', () => {
    const dir = aDataDir();
    const torn = `${JSON.stringify({ index: 0, entry: entry('a') })}\n{"index":1,"entry":{"at":1,"portf`;
    writeFileSync(join(dir, COMMAND_LOG_FILE), torn);
    new CommandLog(dir);
    expect(readFileSync(join(dir, COMMAND_LOG_FILE), 'utf8')).toBe(torn);
  });

  it('mends a torn last line before its first append, so the entry reads back: cut off when partial, ended when whole', () => {
    const partial = aDataDir();
    new CommandLog(partial).append(entry('a'), 0);
    appendFileSync(join(partial, COMMAND_LOG_FILE), '{"index":1,"entry":{"at":1,"portf');
    new CommandLog(partial).append(entry('b'), 1);
    expect(loggedAfter(partial, 0)).toEqual([entry('a'), entry('b')]);

    const whole = aDataDir();
    appendFileSync(join(whole, COMMAND_LOG_FILE), JSON.stringify({ index: 0, entry: entry('a') }));
    new CommandLog(whole).append(entry('b'), 1);
    expect(loggedAfter(whole, 0)).toEqual([entry('a'), entry('b')]);
  });

  it('leaves nothing of an entry whose write failed, cutting the log back before the next append when it could not at once', () => {
    const dir = aDataDir();
    const path = join(dir, COMMAND_LOG_FILE);
    const log = new CommandLog(dir);
    log.append(entry('a'), 0);
    const before = readFileSync(path, 'utf8');
    // The log cannot be written, nor cut back (a directory in its place, as an I/O error).
    renameSync(path, `${path}.away`);
    mkdirSync(path);
    expect(() => log.append(entry('b'), 1)).toThrow(/EISDIR/);
    rmdirSync(path);
    renameSync(`${path}.away`, path);
    // What the failed write might have left of its line.
    appendFileSync(path, '{"index":1,"entry":{"at":1,"portf');
    log.append(entry('b'), 1);
    expect(readFileSync(path, 'utf8')).toBe(`${before}${JSON.stringify({ index: 1, entry: entry('b') })}\n`);
    expect(loggedAfter(dir, 0)).toEqual([entry('a'), entry('b')]);
  });

  it('names the file and line of a malformed line before the last', () => {
    const dir = aDataDir();
    writeFileSync(
      join(dir, COMMAND_LOG_FILE),
      `not json\n${JSON.stringify({ index: 0, entry: entry('a') })}\n`,
    );
    expect(() => loggedAfter(dir, 0)).toThrow(
      `${join(dir, COMMAND_LOG_FILE)}:1: not a paper-venue command log line`,
    );
  });

  it('refuses a log that skips entries the snapshot does not hold', () => {
    const dir = aDataDir();
    new CommandLog(dir).append(entry('c'), 5);
    expect(() => loggedAfter(dir, 3)).toThrow(/:1: entry 5 follows entry 2: the log is missing entries/);
  });

  it('gives back the lockstep ticks among the commands, and refuses a tick without a time', () => {
    const dir = aDataDir();
    const log = new CommandLog(dir);
    const tick: JournalEntry = { at: 1, tickTo: 2500 };
    log.append(entry('a'), 0);
    log.append(tick, 1);
    log.append(entry('b'), 2);
    expect(loggedAfter(dir, 0)).toEqual([entry('a'), tick, entry('b')]);

    const timeless = aDataDir();
    writeFileSync(
      join(timeless, COMMAND_LOG_FILE),
      `${JSON.stringify({ index: 0, entry: { at: 1, tickTo: 'soon' } })}\nx\n`,
    );
    expect(() => loggedAfter(timeless, 0)).toThrow(/:1: not a paper-venue command log line/);
  });

  it('refuses a line naming a command the venue does not have', () => {
    const dir = aDataDir();
    writeFileSync(
      join(dir, COMMAND_LOG_FILE),
      `${JSON.stringify({ index: 0, entry: { ...entry('a'), command: 'FLY' } })}\nx\n`,
    );
    expect(() => loggedAfter(dir, 0)).toThrow(/:1: not a paper-venue command log line/);
  });
});

describe('paper venue saved journal', () => {
  const snapshot = (fields: object): string =>
    JSON.stringify({ format: 'keel-paper-venue', released: 4, virtualNow: 9, markups: {}, ...fields });

  it('is the whole command log next to a version 2 snapshot', () => {
    const dir = aDataDir();
    const log = new CommandLog(dir);
    log.append(entry('a'), 0);
    log.append(entry('b'), 1);
    writeFileSync(join(dir, SNAPSHOT_FILE), snapshot({ version: 2, journalLength: 1 }));
    const { saved, entries } = savedJournal(dir);
    expect(saved).toMatchObject({ version: 2, released: 4, journalLength: 1 });
    expect(entries).toEqual([entry('a'), entry('b')]);
  });

  it("is a version 1 snapshot's own journal, then the log's entries after it", () => {
    const dir = aDataDir();
    writeFileSync(join(dir, SNAPSHOT_FILE), snapshot({ version: 1, journal: [entry('a'), entry('b')] }));
    const log = new CommandLog(dir);
    log.append(entry('b'), 1);
    log.append(entry('c'), 2);
    expect(savedJournal(dir).entries).toEqual([entry('a'), entry('b'), entry('c')]);
  });

  it('refuses a log shorter than the journal the snapshot says the venue had made, naming both files', () => {
    const dir = aDataDir();
    new CommandLog(dir).append(entry('a'), 0);
    writeFileSync(join(dir, SNAPSHOT_FILE), snapshot({ version: 2, journalLength: 3 }));
    expect(() => savedJournal(dir)).toThrow(
      `${join(dir, SNAPSHOT_FILE)}: the venue had journaled 3 commands and lockstep ticks, but ` +
        `${join(dir, COMMAND_LOG_FILE)} holds 1`,
    );
  });
});

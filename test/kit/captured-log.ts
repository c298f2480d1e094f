import { Writable } from 'node:stream';
import { type Level, type Logger, pino } from 'pino';

/**
 * A logger whose records, parsed, land in an array, for tests that read what was logged.
 * @param level - the lowest level kept
 * @returns the logger and its records, in order
 */
export function capturedLog(level: Level): { logger: Logger; records: Record<string, unknown>[] } {
  const records: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) records.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level }, sink), records };
}

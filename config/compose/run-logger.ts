import { type Logger, pino } from 'pino';
import { LOG_REDACT_PATHS } from '../schema/index.ts';

/**
 * The pino logger of a live or paper run: JSON lines on stderr (stdout carries results), with
 * every credential path redacted.
 * @param name - the run's name
 * @param level - the configured level
 * @returns the logger
 */
export function runLogger(name: string, level: string): Logger {
  return pino(
    { name: `keel.${name}`, level, redact: { paths: [...LOG_REDACT_PATHS], censor: '[redacted]' } },
    pino.destination(2),
  );
}

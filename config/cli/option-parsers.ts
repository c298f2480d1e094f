import { InvalidArgumentError } from 'commander';
import { Info } from 'luxon';
import { parseSym } from '../../core/model/index.ts';

/**
 * Collects a repeatable option (`--set a=1 --set b=2`).
 * @param value - this occurrence
 * @param previous - the ones before
 * @returns all occurrences in order
 */
export function collect(value: string, previous: readonly string[]): string[] {
  return [...previous, value];
}

/**
 * Parses an integer option within bounds.
 * @param min - smallest allowed
 * @param max - largest allowed
 * @returns a commander argument parser
 * @throws InvalidArgumentError (from the parser) naming the allowed range
 */
export function intInRange(min: number, max: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^-?\d+$/.test(value) || n < min || n > max) {
      throw new InvalidArgumentError(`must be a whole number from ${min} to ${max}.`);
    }
    return n;
  };
}

/**
 * Parses a positive number option.
 * @param value - the option text
 * @returns the number
 * @throws InvalidArgumentError when it is not a number above zero
 */
export function positiveNumber(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0)
    throw new InvalidArgumentError('must be a number above 0.');
  return n;
}

/**
 * Parses an IANA time zone option (`America/New_York`, `UTC`).
 * @param value - the option text
 * @returns the zone name
 * @throws InvalidArgumentError when luxon does not know the zone
 */
export function ianaZone(value: string): string {
  if (!Info.isValidIANAZone(value))
    throw new InvalidArgumentError('must be an IANA time zone like America/New_York or UTC.');
  return value;
}

/**
 * Parses a sym option (`BINANCE_PERP_BTC_USDT`, `US_EQUITY_AAPL`) before anything is read.
 * @param value - the option text
 * @returns the sym
 * @throws InvalidArgumentError saying which forms a sym takes
 */
export function symOption(value: string): string {
  try {
    parseSym(value);
  } catch (error) {
    throw new InvalidArgumentError(`${(error as Error).message}.`);
  }
  return value;
}

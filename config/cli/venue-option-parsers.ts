import { readFileSync } from 'node:fs';
import { InvalidArgumentError } from 'commander';
import type { z } from 'zod';
import { issueSentences, strictYamlValue } from '../loader/index.ts';
import {
  fillModelConfigSchema,
  loanTermsConfigSchema,
  paperConfigSchema,
  startingCashSchema,
} from '../schema/index.ts';
import type { VenueFillModel, VenueLatency, VenueLoans } from './commands/venue-setup.ts';

/**
 * Parses one `--balance ASSET=AMOUNT` of `keel venue` into the balances given before it, as
 * `paper.startingCash` takes them (an upper-case asset code, a positive decimal).
 * @param value - this occurrence, e.g. `USDT=50000`
 * @param previous - the balances of the occurrences before
 * @returns the balances, this asset's amount normalised (`5e4` -> `50000`)
 * @throws InvalidArgumentError naming the form, or the asset given twice
 */
export function venueBalanceOption(
  value: string,
  previous: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const at = value.indexOf('=');
  const asset = value.slice(0, at);
  if (at < 0) throw new InvalidArgumentError('must be ASSET=AMOUNT, e.g. USDT=100000.');
  if (asset in previous) throw new InvalidArgumentError(`names ${asset} twice.`);
  const cash = startingCashSchema.safeParse({ [asset]: value.slice(at + 1) });
  if (!cash.success) throw new InvalidArgumentError(`${value}: ${issueText(cash.error)}.`);
  const amount = cash.data[asset];
  if (amount === undefined) throw new InvalidArgumentError('must be ASSET=AMOUNT, e.g. USDT=100000.');
  return { ...previous, [asset]: amount.toFixed() };
}

/**
 * Parses `keel venue --fill-model`: a name (`bar`, `queue`, `touch`, `through`) or a flow map with
 * the settings `paper.fillModel` takes (`{name: queue, partialFills: false, slippageTicks: 1}`).
 * @param value - the option text
 * @returns the fill model, as `paper.fillModel` holds it
 * @throws InvalidArgumentError saying what the setting takes
 */
export function venueFillModelOption(value: string): VenueFillModel {
  const parsed = fillModelConfigSchema.safeParse(yamlOf(value));
  if (!parsed.success) throw new InvalidArgumentError(`${issueText(parsed.error)}.`);
  return parsed.data;
}

/**
 * Parses `keel venue --latency`: the order-entry delay in ms (`25`), or a flow map with the
 * settings `paper.latency` takes (`{fixedMs: 25, jitterMs: 10, seed: 2, userData: {fixedMs: 5}}`).
 * @param value - the option text
 * @returns the latency, as `paper.latency` holds it
 * @throws InvalidArgumentError saying what the setting takes
 */
export function venueLatencyOption(value: string): VenueLatency {
  const given = yamlOf(value);
  const input = typeof given === 'number' ? { fixedMs: given } : given;
  const form = 'must be a delay in ms or a map like {fixedMs: 25, jitterMs: 10}';
  if (typeof input !== 'object' || input === null) throw new InvalidArgumentError(`${form}.`);
  const parsed = paperConfigSchema.shape.latency.safeParse(input);
  if (!parsed.success) throw new InvalidArgumentError(`${form}: ${issueText(parsed.error)}.`);
  if (parsed.data === undefined) throw new InvalidArgumentError(`${form}.`);
  return parsed.data;
}

/**
 * Parses `keel venue --loans`: a flow map with what `paper.loans` takes
 * (`{assets: {"BINANCE:USDT": {annualRate: 0.08, userQuota: 50000}}}`), or the path of a YAML
 * file holding one.
 * @param value - the option text
 * @returns the terms as given (kept so in a data dir), checked as `paper.loans` checks them
 * @throws InvalidArgumentError saying what the setting takes, or what is wrong with the terms
 */
export function venueLoansOption(value: string): VenueLoans {
  const form =
    'must be a map like {assets: {"BINANCE:USDT": {annualRate: 0.08, userQuota: 50000}}} or a YAML file holding one';
  let given = yamlOf(value);
  if (typeof given === 'string') {
    try {
      given = strictYamlValue(readFileSync(given, 'utf8')) as unknown;
    } catch {
      throw new InvalidArgumentError(`${form}.`);
    }
  }
  if (typeof given !== 'object' || given === null) throw new InvalidArgumentError(`${form}.`);
  const parsed = loanTermsConfigSchema.safeParse(given);
  if (!parsed.success) throw new InvalidArgumentError(`${issueText(parsed.error)}.`);
  return given as VenueLoans;
}

function yamlOf(value: string): unknown {
  try {
    return strictYamlValue(value) as unknown;
  } catch {
    return value;
  }
}

/** The issues in the words a config's are told (`USDT: must be positive`), joined. */
function issueText(error: z.ZodError): string {
  return issueSentences(error.issues)
    .map(({ path, message }) => (path.length === 0 ? message : `${path.join('.')}: ${message}`))
    .join('; ');
}

import { type Dec, parseDecimal } from '../../core/model/index.ts';
import { badParameter } from './envelope.ts';

/** Request parameters as received: a parsed query string or JSON body. */
export type Params = Readonly<Record<string, unknown>>;

/**
 * A required text field.
 * @param params - the request parameters
 * @param field - the field name
 * @param where - the request, for the error
 * @returns the text
 * @throws PaperApiError 400001 when missing or not text
 */
export function requiredText(params: Params, field: string, where: string): string {
  const value = params[field];
  if (typeof value !== 'string' || value === '') throw badParameter(`${where} ${field}`, 'is required');
  return value;
}

/**
 * A required text field that must be one of a few values.
 * @param params - the request parameters
 * @param field - the field name
 * @param choices - the values accepted
 * @param where - the request, for the error
 * @returns the value
 * @throws PaperApiError 400001 when missing, or when not one of `choices` ("must be BUY or SELL")
 */
export function requiredChoice<const C extends string>(
  params: Params,
  field: string,
  choices: readonly C[],
  where: string,
): C {
  return oneOf(requiredText(params, field, where), choices, field, where);
}

/**
 * An optional filter that must be one of a few values: absent means "any", anything else is
 * refused rather than widened to "any".
 * @param params - the request parameters
 * @param field - the field name
 * @param choices - the values accepted
 * @param where - the request, for the error
 * @returns the value, or undefined when absent or empty
 * @throws PaperApiError 400001 when present but not one of `choices`
 */
export function optionalChoice<const C extends string>(
  params: Params,
  field: string,
  choices: readonly C[],
  where: string,
): C | undefined {
  const value = optionalText(params, field, where);
  return value === undefined ? undefined : oneOf(value, choices, field, where);
}

function oneOf<C extends string>(value: string, choices: readonly C[], field: string, where: string): C {
  if ((choices as readonly string[]).includes(value)) return value as C;
  const listed = `${choices.slice(0, -1).join(', ')} or ${choices.at(-1)}`;
  throw badParameter(`${where} ${field}`, `must be ${listed}`);
}

/**
 * An optional text field.
 * @param params - the request parameters
 * @param field - the field name
 * @param where - the request, for the error
 * @returns the text, or undefined when absent or empty
 * @throws PaperApiError 400001 when present but not text
 */
export function optionalText(params: Params, field: string, where: string): string | undefined {
  const value = params[field];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw badParameter(`${where} ${field}`, 'must be a string');
  return value;
}

/**
 * A required decimal field written as a string.
 * @param params - the request parameters
 * @param field - the field name
 * @param where - the request, for the error
 * @returns the Decimal
 * @throws PaperApiError 400001 when missing or not a decimal string
 */
export function requiredDecimal(params: Params, field: string, where: string): Dec {
  const text = requiredText(params, field, where);
  return decimalFrom(text, field, where);
}

/**
 * An optional decimal field written as a string.
 * @param params - the request parameters
 * @param field - the field name
 * @param where - the request, for the error
 * @returns the Decimal, or undefined when absent
 * @throws PaperApiError 400001 when present but not a decimal string
 */
export function optionalDecimal(params: Params, field: string, where: string): Dec | undefined {
  const text = optionalText(params, field, where);
  return text === undefined ? undefined : decimalFrom(text, field, where);
}

function decimalFrom(text: string, field: string, where: string): Dec {
  try {
    return parseDecimal(text, field);
  } catch {
    throw badParameter(`${where} ${field}`, `must be a decimal string, got ${JSON.stringify(text)}`);
  }
}

/**
 * An optional boolean field; a query string's "true" / "false" count.
 * @param params - the request parameters
 * @param field - the field name
 * @param where - the request, for the error
 * @returns the boolean, or undefined when absent
 * @throws PaperApiError 400001 when present but not a boolean
 */
export function optionalBoolean(params: Params, field: string, where: string): boolean | undefined {
  const value = params[field];
  if (value === undefined || value === null || value === '') return undefined;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw badParameter(`${where} ${field}`, 'must be true or false');
}

/**
 * An optional list field: a JSON array, or comma-separated text in a query string.
 * @param params - the request parameters
 * @param field - the field name
 * @param where - the request, for the error
 * @returns the list of texts, or undefined when absent
 * @throws PaperApiError 400001 when present but neither
 */
export function optionalList(params: Params, field: string, where: string): string[] | undefined {
  const value = params[field];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'string') return value.split(',').filter((item) => item !== '');
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return [...value];
  throw badParameter(`${where} ${field}`, 'must be a list of strings');
}

/**
 * An optional whole-number field (a query string's digits count).
 * @param params - the request parameters
 * @param field - the field name
 * @param where - the request, for the error
 * @returns the number, or undefined when absent
 * @throws PaperApiError 400001 when present but not a whole number
 */
export function optionalInteger(params: Params, field: string, where: string): number | undefined {
  const value = params[field];
  if (value === undefined || value === null || value === '') return undefined;
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n)) throw badParameter(`${where} ${field}`, 'must be a whole number');
  return n;
}

/**
 * The positionSide of a request: NONE (default), LONG or SHORT.
 * @param params - the request parameters
 * @param where - the request, for the error
 * @returns the side
 * @throws PaperApiError 400001 for any other value
 */
export function positionSideOf(params: Params, where: string): 'NONE' | 'LONG' | 'SHORT' {
  const side = optionalText(params, 'positionSide', where) ?? 'NONE';
  return oneOf(side, ['NONE', 'LONG', 'SHORT'], 'positionSide', where);
}

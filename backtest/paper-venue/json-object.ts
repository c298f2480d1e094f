/**
 * Whether a parsed JSON value is an object with fields, the only shape a client's frame or arg
 * entry can be read field by field: `null`, arrays and plain values are not.
 * @param value - a value from `JSON.parse`
 * @returns true for a JSON object
 */
export function isJsonObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

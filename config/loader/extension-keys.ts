import { EXTENSION_KEY } from '../schema/index.ts';

/**
 * The config's data without its top-level extension keys ({@link EXTENSION_KEY}), which the
 * schema then never sees. Keys of that shape deeper in the config are left to the schema, which
 * refuses them as unknown.
 * @param data - the config's data, its aliases resolved
 * @returns the data without them (the same object when it has none)
 */
export function withoutExtensionKeys(data: unknown): unknown {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return data;
  const keys = Object.keys(data);
  if (!keys.some((key) => EXTENSION_KEY.test(key))) return data;
  return Object.fromEntries(Object.entries(data).filter(([key]) => !EXTENSION_KEY.test(key)));
}

import { z } from 'zod';
import { EXTENSION_KEY } from './extension-key.ts';
import { keelConfigSchema } from './keel-config.ts';

/** Where the generated JSON Schema lives, relative to the repository root. */
export const JSON_SCHEMA_FILE = 'config/keel.schema.json';

/**
 * The JSON Schema of a config file as written (the input side: decimals may be numbers or
 * strings, defaults may be left out), for editor completion through yaml-language-server.
 * @returns the schema text, formatted and ending with a newline, exactly as committed
 */
export function keelJsonSchemaText(): string {
  const schema = z.toJSONSchema(keelConfigSchema, { io: 'input', unrepresentable: 'any' });
  // Top-level extension keys (`x-...`, for anchors) are allowed: the loader drops them.
  const withExtensions = { ...schema, patternProperties: { [EXTENSION_KEY.source]: {} } };
  return `${JSON.stringify({ ...withExtensions, title: 'Keel run configuration' }, null, 2)}\n`;
}

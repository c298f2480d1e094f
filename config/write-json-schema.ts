/**
 * Writes config/keel.schema.json and config/CONFIG-REFERENCE.md from the zod schema
 * (`npm run schema`), formatted by biome so `npm run lint` accepts them. Tests fail when either
 * committed file differs in content, so run this after changing anything in config/schema.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import {
  CONFIG_REFERENCE_FILE,
  configReferenceMarkdown,
  JSON_SCHEMA_FILE,
  keelJsonSchemaText,
} from './schema/index.ts';

writeFileSync(JSON_SCHEMA_FILE, keelJsonSchemaText());
writeFileSync(CONFIG_REFERENCE_FILE, configReferenceMarkdown());
const files = [JSON_SCHEMA_FILE, CONFIG_REFERENCE_FILE];
const format = spawnSync('node_modules/.bin/biome', ['format', '--write', ...files], { stdio: 'inherit' });
if (format.status !== 0) {
  console.error(`✖ biome could not format ${files.join(' and ')} (exit ${format.status})`);
  process.exit(1);
}
console.log(`wrote ${files.join(' and ')}`);

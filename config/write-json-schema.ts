/**
 * Writes config/keel.schema.json from the zod schema (`npm run schema`), formatted by biome so
 * `npm run lint` accepts it. A test fails when the committed file differs in content, so run
 * this after changing anything in config/schema.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { JSON_SCHEMA_FILE, keelJsonSchemaText } from './schema/index.ts';

writeFileSync(JSON_SCHEMA_FILE, keelJsonSchemaText());
const format = spawnSync('node_modules/.bin/biome', ['format', '--write', JSON_SCHEMA_FILE], {
  stdio: 'inherit',
});
if (format.status !== 0) {
  console.error(`✖ biome could not format ${JSON_SCHEMA_FILE} (exit ${format.status})`);
  process.exit(1);
}
console.log(`wrote ${JSON_SCHEMA_FILE}`);

import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

// `npm run bench`: runs every bench/*.bench.ts in its own process (so memory figures of one do not
// leak into the next), one after the other, and fails if any of them failed.
const benchDir = fileURLToPath(new URL('.', import.meta.url));
const files = readdirSync(benchDir)
  .filter((name) => name.endsWith('.bench.ts'))
  .sort();
const failed: string[] = [];
for (const name of files) {
  const file = join(benchDir, name);
  process.stdout.write(`\n=== ${relative(process.cwd(), file)} ===\n`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', file], { stdio: 'inherit' });
  if (run.status !== 0) failed.push(`${name} (exit ${run.status ?? run.signal})`);
}
process.stdout.write(
  `\n${files.length} benchmark(s) run${failed.length ? `; failed: ${failed.join(', ')}` : ''}\n`,
);
process.exitCode = failed.length ? 1 : 0;

import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const inRepo = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  // A strategy plugin a test writes imports `keel` and `keel/model` as a user's does. A keel process
  // maps them with config/compose/plugin-import-hooks.js; a plugin a test loads in this process
  // (keelInProcess) is resolved by vitest's module runner, which those hooks do not reach: the
  // same two mappings here. plugin-imports.test.ts checks the hooks themselves in a child process.
  resolve: {
    alias: [
      { find: /^keel$/, replacement: inRepo('./core/kernel/index.ts') },
      { find: /^keel\/model$/, replacement: inRepo('./core/model/index.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // Keel's per-user state directory (the kill switch's account files) in a temporary one.
    globalSetup: ['./test/kit/state-dir-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // The test files share one large module graph (kernel, sim, venue, config): isolating each file
    // re-imported it per file, 313 s of a 985 s run on 2 cores (540 s without). Tests restore
    // what they change themselves (fake timers, cwd, signal handlers, temp dirs).
    isolate: false,
    // Two test files at once on CI's 2 cores (vitest's default is one fewer than the cores): many
    // files wait on real time (paced paper sessions, child processes, signals), so one worker left
    // a core idle. Each worker is its own process, so cwd, env and signal handlers stay per file.
    maxWorkers: 2,
    reporters: ['default', './test/kit/plain-summary-reporter.ts'],
  },
});

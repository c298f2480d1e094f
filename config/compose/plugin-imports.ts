import { register } from 'node:module';

let registered = false;

/**
 * Lets strategy plugins outside this repository import Keel as `keel` (the strategy API,
 * `core/kernel/index.ts`) and `keel/model` (`core/model/index.ts`), and zod, trading-signals, rxjs
 * and decimal.js as Keel's own copies (Keel's choice: one copy for Keel and its plugins, and no
 * install in the plugin's folder). Installs
 * the resolution hooks of `plugin-import-hooks.js` once per process, before the first plugin loads.
 */
export function resolvePluginImportsFromKeel(): void {
  if (registered) return;
  registered = true;
  const url = (path: string) => new URL(path, import.meta.url).href;
  register(url('./plugin-import-hooks.js'), {
    data: {
      keel: url('../../core/kernel/index.ts'),
      keelModel: url('../../core/model/index.ts'),
      root: url('../../package.json'),
    },
  });
}

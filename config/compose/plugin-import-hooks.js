// Module resolution hooks (node:module register) for strategy plugins kept outside the Keel
// repository: `import { defineStrategy } from 'keel'` and `from 'keel/model'` reach this
// checkout's public strategy API, and the packages the API is made of (zod, trading-signals,
// rxjs, decimal.js) are Keel's own copies, so a plugin folder needs no node_modules and no
// absolute path into the clone, and a schema, indicator, stream or Decimal a plugin makes is the
// very kind Keel checks with instanceof. Plain JavaScript: hooks run on Node's loader
// thread, before tsx could compile them.

/** @type {Record<string, string>} */
let entries = {};
/** @type {string} */
let keelRoot = '';

/** Packages a plugin shares with Keel: resolved from Keel's root, with their subpaths. */
const SHARED_PACKAGES = ['zod', 'trading-signals', 'rxjs', 'decimal.js'];

/**
 * Receives the URLs of Keel's entry points (from plugin-imports.ts).
 * @param {{ keel: string, keelModel: string, root: string }} data - file URLs
 */
export function initialize(data) {
  entries = { keel: data.keel, 'keel/model': data.keelModel };
  keelRoot = data.root;
}

/**
 * Maps `keel`, `keel/model` to Keel's entry points and resolves the shared packages (and their
 * subpaths, `zod/v4`, `rxjs/operators`) from Keel's root; every other specifier resolves as usual.
 * @param {string} specifier - what the importing module wrote
 * @param {{ parentURL?: string }} context - who imports it
 * @param {(specifier: string, context?: object) => Promise<object>} next - the next resolver
 * @returns {Promise<object>} the resolution
 */
export async function resolve(specifier, context, next) {
  const entry = entries[specifier];
  if (entry !== undefined) return { url: entry, shortCircuit: true };
  if (SHARED_PACKAGES.some((name) => specifier === name || specifier.startsWith(`${name}/`)))
    return next(specifier, { ...context, parentURL: keelRoot });
  const resolved = await next(specifier, context);
  // A .ts file in a folder without a "type": "module" package.json would be read as CommonJS,
  // which fails on the ESM imports every plugin has: plugins' own TypeScript is ESM.
  return resolved.format === 'commonjs' && isPluginTypeScript(resolved.url)
    ? { ...resolved, format: 'module' }
    : resolved;
}

/**
 * @param {string} url - a resolved URL
 * @returns {boolean} whether it is a TypeScript file outside Keel and outside any node_modules
 */
function isPluginTypeScript(url) {
  return (
    /\.ts$/.test(new URL(url).pathname) &&
    !url.startsWith(new URL('.', keelRoot).href) &&
    !url.includes('/node_modules/')
  );
}

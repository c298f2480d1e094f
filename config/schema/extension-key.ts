/**
 * Top-level keys a config may carry for itself (Keel's choice, after Docker Compose's extension
 * fields): a key starting with `x-` is not read, so it can hold YAML anchors that the run's
 * sections merge in (`x-common: &common {...}`, then `<<: *common`). The loader drops them
 * before validation; the JSON Schema allows them.
 */
export const EXTENSION_KEY = /^x-/;

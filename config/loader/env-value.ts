import { readFileSync } from 'node:fs';

/** Environment values a config may refer to: process.env merged over a `.env` file. */
export type EnvValues = Readonly<Record<string, string | undefined>>;

/** A variable's value (`undefined` when unset, `''` when empty), or why it could not be read. */
export type EnvLookup = { readonly value: string | undefined } | { readonly problem: string };

/**
 * A variable's value as a config reference reads it: `NAME` itself when set and not empty, else
 * the content of the file `NAME_FILE` names (the convention of Docker and Kubernetes secrets,
 * mounted as files so that they never sit in the environment), with one trailing line break
 * removed. A relative `NAME_FILE` path is taken from the working directory.
 * @param env - the values
 * @param name - the variable
 * @returns the value, or a sentence naming the file that could not be read
 */
export function envValueOf(env: EnvValues, name: string): EnvLookup {
  const value = env[name];
  if (value !== undefined && value !== '') return { value };
  const file = env[`${name}_FILE`];
  if (file === undefined || file === '') return { value };
  try {
    return { value: readFileSync(file, 'utf8').replace(/\r?\n$/, '') };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return {
      problem: `${name} is not set, and ${name}_FILE names ${file}, which cannot be read (${code})`,
    };
  }
}

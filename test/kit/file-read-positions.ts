import { open } from 'node:fs/promises';

/** Where in files the reads of some work went, through `FileHandle.read`. */
export interface FileReads<T> {
  readonly value: T;
  /** The file positions read at, in the order read. */
  readonly positions: readonly number[];
}

/**
 * Runs some work and notes the positions of its `FileHandle.read(buffer, offset, length,
 * position)` calls (every file: run it alone). Observes without mocking modules, which does not
 * hold with the suite's shared module graph.
 * @param anyFile - a readable file, opened once to reach the FileHandle class
 * @param work - the work
 * @returns its value and the positions read at
 */
export async function fileReadPositions<T>(anyFile: string, work: () => Promise<T>): Promise<FileReads<T>> {
  const handle = await open(anyFile, 'r');
  const proto = Object.getPrototypeOf(handle) as { read: (...args: unknown[]) => Promise<unknown> };
  await handle.close();
  const read = proto.read;
  const positions: number[] = [];
  proto.read = function (this: unknown, ...args: unknown[]) {
    const position = args[3];
    if (typeof position === 'number') positions.push(position);
    return read.apply(this, args);
  };
  try {
    return { value: await work(), positions };
  } finally {
    proto.read = read;
  }
}

import { createReadStream } from 'node:fs';

/**
 * The baseline every replay figure is compared with: read a `.jsonl` file in 64 KiB chunks, split
 * lines by hand (not readline) and `JSON.parse` each one, doing nothing else.
 * @param path - an uncompressed recording
 * @param onChunk - called after each chunk (the RSS probe samples memory there)
 * @returns the number of lines parsed
 */
export async function bareJsonLoop(path: string, onChunk: () => void = () => {}): Promise<number> {
  let lines = 0;
  let carry: Buffer | undefined;
  for await (const piece of createReadStream(path, { highWaterMark: 1 << 16 })) {
    const chunk: Buffer = carry === undefined ? piece : Buffer.concat([carry, piece]);
    const lastNl = chunk.lastIndexOf(10);
    carry = chunk.subarray(lastNl + 1);
    const text = chunk.toString('utf8', 0, lastNl);
    let start = 0;
    let nl = text.indexOf('\n');
    while (nl !== -1) {
      if (JSON.parse(text.slice(start, nl)) !== null) lines++;
      start = nl + 1;
      nl = text.indexOf('\n', start);
    }
    if (JSON.parse(text.slice(start)) !== null) lines++;
    onChunk();
  }
  return lines;
}

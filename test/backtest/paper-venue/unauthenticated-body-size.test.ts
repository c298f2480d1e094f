import { type IncomingMessage, request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { aPaperVenue, closedAfterEachTest } from '../../kit/paper-venue-builders.ts';
import { signedRest } from '../../kit/paper-venue-client.ts';

const opened = closedAfterEachTest();
const MB = 1 << 20;

/**
 * Streams up to `megabytes` MiB of spaces as a POST body, 1 MiB at a time, each write waiting for
 * the server to take it or to answer: how much was written before the answer, and the answer.
 */
async function streamBody(restUrl: string, headers: Record<string, string>, megabytes: number) {
  const url = new URL('/api/v1/trading/order', restUrl);
  let answer: { status: number | undefined; body: string } | undefined;
  let done = (): void => undefined;
  const answered = new Promise<void>((resolve) => {
    done = resolve;
  });
  const req = request(url, { method: 'POST', headers }, (res: IncomingMessage) => {
    let body = '';
    res.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    res.on('end', () => {
      answer = { status: res.statusCode, body };
      done();
    });
  });
  req.on('error', () => done());
  const chunk = Buffer.alloc(MB, 0x20);
  let written = 0;
  while (written < megabytes && answer === undefined) {
    const drained = req.write(chunk)
      ? Promise.resolve()
      : new Promise<void>((r) => req.once('drain', () => r()));
    written++;
    await Promise.race([drained, answered]);
  }
  await Promise.race([answered, new Promise((r) => setTimeout(r, 5_000))]);
  req.destroy();
  return { written, answer };
}

describe('paper venue REST: a request body', () => {
  it('from a client with no API key is answered 401 before it is read, not buffered whole', async () => {
    const venue = await aPaperVenue();
    opened.venue = venue;
    const { written, answer } = await streamBody(venue.restUrl, { 'content-type': 'application/json' }, 64);
    expect(answer?.status).toBe(401);
    expect(answer?.body).toMatch(/X-MBX-APIKEY is missing or unknown/);
    // The answer came while the client still had most of its 64 MiB to send.
    expect(written).toBeLessThan(64);
  }, 30_000);

  it('with a known key but longer than 1 MiB is refused with 413, by its Content-Length or as it streams', async () => {
    const venue = await aPaperVenue();
    opened.venue = venue;
    const headers = {
      'content-type': 'application/json',
      'X-MBX-APIKEY': venue.apiKey,
      nonce: String(Math.floor(Date.now() / 1000)),
    };
    const streamed = await streamBody(venue.restUrl, headers, 64);
    expect(streamed.answer?.status).toBe(413);
    expect(streamed.answer?.body).toMatch(/body is longer than 1048576 bytes/);
    expect(streamed.written).toBeLessThan(64);
    const declared = await streamBody(venue.restUrl, { ...headers, 'content-length': String(2 * MB) }, 2);
    expect(declared.answer?.status).toBe(413);
  }, 30_000);

  it('of a signed request within the limit is served as before', async () => {
    const venue = await aPaperVenue();
    opened.venue = venue;
    const reply = await signedRest(venue, 'POST', '/api/v1/trading/order', {
      clientOrderId: 'x'.repeat(100_000),
    });
    expect(reply.status).not.toBe(413);
    expect(reply.status).not.toBe(401);
  }, 30_000);
});

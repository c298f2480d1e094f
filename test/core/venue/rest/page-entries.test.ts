import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createInboundCounters, DecodeError } from '../../../../core/venue/index.ts';
import { venueRestRig } from '../../../kit/venue-rest-rig.ts';
import { ok, WIRE_EXECUTION } from '../../../kit/venue-wire-samples.ts';

const good = (id: string) => ({ ...WIRE_EXECUTION, transactionId: id });
const bad = (id: string) => ({ ...WIRE_EXECUTION, transactionId: id, quantity: 'n/a' });

/**
 * The recent executions are listed by the catch-up after every reconnect. One execution Keel could
 * not decode failed the whole listing, and so every catch-up: the fills made while the socket was
 * down were never reported, and the order states that depend on them were held back for ever.
 */
describe('venue REST client: an execution page with an entry Keel cannot decode', () => {
  const counters = createInboundCounters();
  const warnings: string[] = [];
  const logger = pino(
    { level: 'warn' },
    { write: (line: string) => void warnings.push((JSON.parse(line) as { problem: string }).problem) },
  );
  const venue = venueRestRig({ counters, logger });

  it('keeps the good entries and logs and counts the bad one as malformed', async () => {
    venue.server.handler = () => ({
      body: ok({ page: 1, pageSize: 100, totalSize: 3, list: [good('t-1'), bad('t-2'), good('t-3')] }),
    });
    const before = { ...counters };
    const page = await venue.client.getExecutionsPage({ page: 1, pageSize: 100 });
    expect(page.list.map((e) => e.transactionId)).toEqual(['t-1', 't-3']);
    expect(counters.malformed - before.malformed).toBe(1);
    expect(counters.replies - before.replies).toBe(1);
    expect(warnings.at(-1)).toMatch(/data\.list\[1\]\.quantity must be a decimal string/);
  });

  it('pages on past a page whose every entry was left out', async () => {
    venue.server.handler = (request) => {
      const page = Number(request.query.page);
      const list = page === 1 ? [bad('t-1'), bad('t-2')] : [good('t-3'), good('t-4')];
      return { body: ok({ page, pageSize: 2, totalSize: 4, list }) };
    };
    const ids: string[] = [];
    for await (const execution of venue.client.pages('getExecutionsPage', {}, 2))
      ids.push(execution.transactionId);
    expect(ids).toEqual(['t-3', 't-4']);
  });

  it('still stops at an empty page', async () => {
    let asked = 0;
    venue.server.handler = (request) => {
      asked++;
      return { body: ok({ page: Number(request.query.page), pageSize: 2, totalSize: 100, list: [] }) };
    };
    const ids: string[] = [];
    for await (const execution of venue.client.pages('getExecutionsPage', {}, 2))
      ids.push(execution.transactionId);
    expect({ ids, asked }).toEqual({ ids: [], asked: 1 });
  });

  it('fails on a page that is itself malformed', async () => {
    venue.server.handler = () => ({ body: ok({ page: 1, pageSize: 100, list: [good('t-1')] }) });
    await expect(venue.client.getExecutionsPage({})).rejects.toBeInstanceOf(DecodeError);
  });
});

import { type RandomSource, seededRandom } from '../../core/kernel/index.ts';

/**
 * The random source of a portfolio's generated `PLACE_ORDER` references: the venue's seed mixed
 * with the portfolio id (FNV-1a), so two portfolios draw different references and a restart,
 * replaying the journal's commands in order, draws the same ones again.
 * @param seed - the venue's seed
 * @param portfolioId - the portfolio
 * @returns a seeded source of its own
 */
export function referenceRandom(seed: number, portfolioId: string): RandomSource {
  let hash = 0x811c9dc5;
  for (let i = 0; i < portfolioId.length; i++) {
    hash = Math.imul(hash ^ portfolioId.charCodeAt(i), 0x01000193) >>> 0;
  }
  return seededRandom((seed ^ hash) >>> 0);
}

/**
 * A version 4 UUID (RFC 4122: random bits, version nibble 4, variant 10) drawn from a seeded
 * source, for a `PLACE_ORDER` sent without `reference` (spec: "When omitted the service
 * generates a UUID"); seeded rather than `crypto.randomUUID`, so paper runs stay repeatable.
 * @param random - the source to draw 16 bytes from
 * @returns the UUID, lower-case hex
 */
export function seededUuid(random: RandomSource): string {
  const bytes = Array.from({ length: 16 }, () => Math.floor(random.next() * 256));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The kernel and the public strategy API.
 * @packageDocumentation
 */
export type { Clock } from './clock.ts';
export type { RandomSource } from './random.ts';
export { seededRandom } from './random.ts';

import { seededRandom, TrailingLevel } from '../core/kernel/index.ts';

// The per-event cost of Keel's emulated trailing stop (core/kernel/trailing-level.ts): the
// kernel hands every trade (or mark, or BBO) of a sym with open stops to each stop's level, which
// does a division, compares and sometimes a Math.floor on plain numbers; Decimals are made only
// when a stop changes status. Prints ns per price for one stop on a seeded random walk of 0.1
// ticks around 95,000 (the SYNTHETIC BTC perpetual's scale), an offset wide enough (1,000,000
// ticks) that it never triggers, so every price is the trailing path, for each offset type.

const PRICES = 2_000_000;
const random = seededRandom(7);
const prices = new Float64Array(PRICES);
let ticks = 950_000;
for (let i = 0; i < PRICES; i++) {
  ticks += Math.round((random.next() - 0.5) * 20);
  prices[i] = Number((ticks * 0.1).toFixed(1));
}

for (const [offsetType, offset] of [
  ['TICKS', 1_000_000],
  ['PRICE', 100_000],
  ['BPS', 9_999],
] as const) {
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 5; round++) {
    const level = new TrailingLevel({ side: 'SELL', tick: 0.1, offsetType, offset });
    const start = process.hrtime.bigint();
    for (let i = 0; i < PRICES; i++) level.next(prices[i] as number);
    const ns = Number(process.hrtime.bigint() - start) / PRICES;
    if (level.triggered) throw new Error('the bench stop triggered: widen its offset');
    best = Math.min(best, ns);
  }
  console.log(
    `trailing stop, ${offsetType} offset: ${best.toFixed(1)} ns per price (best of 5 x ${PRICES.toLocaleString('en-US')})`,
  );
}

import {
  BucketRateLimiter,
  defaultControllerRateLimiter,
  ExponentialRateLimiter,
  MaxOfRateLimiter,
} from './rate-limiter';

describe('ExponentialRateLimiter', () => {
  it('doubles the delay per failure of a key, from the base, capped at the maximum', () => {
    const limiter = new ExponentialRateLimiter(5, 1_000_000);
    const delays = Array.from({ length: 30 }, () => limiter.when('a'));
    expect(delays.slice(0, 4)).toEqual([5, 10, 20, 40]);
    expect(Math.max(...delays)).toBe(1_000_000);
    expect(delays[delays.length - 1]).toBe(1_000_000);
  });

  it('keeps each key on its own schedule and forgets a key on success', () => {
    const limiter = new ExponentialRateLimiter(5, 1000);
    limiter.when('a');
    limiter.when('a');
    expect(limiter.when('b')).toBe(5);
    expect(limiter.retries('a')).toBe(2);
    limiter.forget('a');
    expect(limiter.retries('a')).toBe(0);
    expect(limiter.when('a')).toBe(5);
  });
});

describe('BucketRateLimiter', () => {
  it('lets a burst through at once, then spaces requests at the rate, and refills over time', () => {
    let now = 0;
    const limiter = new BucketRateLimiter(10, 2, () => now);
    expect([limiter.when('a'), limiter.when('b'), limiter.when('c'), limiter.when('d')]).toEqual([0, 0, 100, 200]);
    now += 1000;
    // 10 tokens refilled, minus the 2 reserved, capped at the burst of 2.
    expect([limiter.when('e'), limiter.when('f'), limiter.when('g')]).toEqual([0, 0, 100]);
  });

  it('refuses a bucket that could never hand out a token', () => {
    expect(() => new BucketRateLimiter(0, 1)).toThrow('qps > 0');
  });
});

describe('MaxOfRateLimiter', () => {
  it('answers the longest wait and records the retry in every limiter', () => {
    const now = 0;
    const limiter = new MaxOfRateLimiter(new ExponentialRateLimiter(5, 1000), new BucketRateLimiter(1, 1, () => now));
    expect(limiter.when('a')).toBe(5);
    expect(limiter.when('a')).toBe(1000);
    expect(limiter.retries('a')).toBe(2);
    limiter.forget('a');
    expect(limiter.retries('a')).toBe(0);
  });

  it('is what controllers get by default: 5 ms per key first', () => {
    const limiter = defaultControllerRateLimiter();
    expect(limiter.when('a')).toBe(5);
    expect(limiter.when('a')).toBe(10);
  });
});

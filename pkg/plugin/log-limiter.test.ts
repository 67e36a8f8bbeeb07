import { LogLimiter } from './log-limiter';

describe('LogLimiter', () => {
  it('lets a number of lines through each second, drops the rest and reports how many were dropped', () => {
    let now = 0;
    const limiter = new LogLimiter(2, () => now);
    expect([limiter.take(), limiter.take(), limiter.take(), limiter.take()].map((t) => t.allowed)).toEqual([
      true,
      true,
      false,
      false,
    ]);
    now = 1000;
    expect(limiter.take()).toEqual({ allowed: true, droppedBefore: 2 });
    expect(limiter.take()).toEqual({ allowed: true, droppedBefore: 0 });
  });
});

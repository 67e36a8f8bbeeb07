import { LoginThrottle } from './login-throttle';
import { StatusError } from '../../api/errors';

const fallback = new Error('401');

describe('LoginThrottle', () => {
  it('answers the fallback up to the limit, then locks until the oldest failure leaves the minute', () => {
    let now = 1_000_000;
    const throttle = new LoginThrottle({ perUser: 2, perAddress: 100 }, () => now);
    expect(throttle.locked('ada', '10.0.0.1')).toBeUndefined();
    expect(throttle.fail('ada', '10.0.0.1', fallback)).toBe(fallback);
    now += 10_000;
    expect(throttle.fail('ada', '10.0.0.1', fallback)).toBe(fallback);
    now += 10_000;
    const locked = throttle.locked('ada', '10.0.0.2');
    expect(locked).toBeInstanceOf(StatusError);
    expect(locked!.code).toBe(429);
    expect(locked!.headers['Retry-After']).toBe('40');
    expect((throttle.fail('ada', '10.0.0.1', fallback) as StatusError).code).toBe(429);
    now += 39_999;
    expect(throttle.locked('ada', '10.0.0.1')).toBeDefined();
    now += 1;
    expect(throttle.locked('ada', '10.0.0.1')).toBeUndefined();
    expect(throttle.fail('ada', '10.0.0.1', fallback)).toBe(fallback);
  });

  it('does not count attempts refused while locked, so Retry-After stays true however often they come', () => {
    let now = 0;
    const throttle = new LoginThrottle({ perUser: 1, perAddress: 100 }, () => now);
    throttle.fail('ada', 'a', fallback);
    for (let i = 0; i < 50; i++) {
      now += 1_000;
      expect(throttle.fail('ada', 'a', fallback)).toBeInstanceOf(StatusError);
    }
    now = 60_000;
    expect(throttle.locked('ada', 'a')).toBeUndefined();
  });

  it("counts users and addresses apart: one user's failures do not lock another; an address locks every user", () => {
    const throttle = new LoginThrottle({ perUser: 1, perAddress: 3 }, () => 0);
    throttle.fail('ada', 'a', fallback);
    expect(throttle.locked('ada', 'b')?.code).toBe(429);
    expect(throttle.fail('bob', 'a', fallback)).toBe(fallback);
    expect(throttle.fail('carol', 'a', fallback)).toBe(fallback);
    expect(throttle.locked('dave', 'a')?.code).toBe(429);
    expect(throttle.locked('dave', 'b')).toBeUndefined();
  });

  it('limits unknown-token failures by address alone', () => {
    const throttle = new LoginThrottle({ perUser: 1, perAddress: 2 }, () => 0);
    expect(throttle.fail(undefined, 'a', fallback)).toBe(fallback);
    expect(throttle.fail(undefined, 'a', fallback)).toBe(fallback);
    expect((throttle.fail(undefined, 'a', fallback) as StatusError).code).toBe(429);
  });

  it("lifts one user's lock when told to, and no one else's", () => {
    const throttle = new LoginThrottle({ perUser: 1, perAddress: 100 }, () => 0);
    throttle.fail('ada', 'a', fallback);
    throttle.fail('bob', 'a', fallback);
    throttle.clearUser('ada');
    expect(throttle.locked('ada', 'a')).toBeUndefined();
    expect(throttle.locked('bob', 'a')).toBeDefined();
  });
});

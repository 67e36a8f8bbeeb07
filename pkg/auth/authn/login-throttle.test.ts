import { LoginThrottle } from './login-throttle';
import { StatusError } from '../../api/errors';

const fallback = new Error('401');

describe('LoginThrottle', () => {
  it('answers the fallback up to the limit, then 429 with the seconds until the oldest failure leaves the minute', () => {
    let now = 1_000_000;
    const throttle = new LoginThrottle({ perUser: 2, perAddress: 100 }, () => now);
    expect(throttle.fail('ada', '10.0.0.1', fallback)).toBe(fallback);
    now += 10_000;
    expect(throttle.fail('ada', '10.0.0.1', fallback)).toBe(fallback);
    now += 10_000;
    const limited = throttle.fail('ada', '10.0.0.1', fallback) as StatusError;
    expect(limited).toBeInstanceOf(StatusError);
    expect(limited.code).toBe(429);
    expect(limited.headers['Retry-After']).toBe('40');
    now += 60_000;
    expect(throttle.fail('ada', '10.0.0.1', fallback)).toBe(fallback);
  });

  it("counts users and addresses apart: one user's failures do not limit another", () => {
    const throttle = new LoginThrottle({ perUser: 1, perAddress: 3 }, () => 0);
    throttle.fail('ada', 'a', fallback);
    expect((throttle.fail('ada', 'a', fallback) as StatusError).code).toBe(429);
    expect(throttle.fail('bob', 'a', fallback)).toBe(fallback);
    expect((throttle.fail('carol', 'a', fallback) as StatusError).code).toBe(429);
    expect(throttle.fail('dave', 'b', fallback)).toBe(fallback);
  });

  it('limits unknown-token failures by address alone', () => {
    const throttle = new LoginThrottle({ perUser: 1, perAddress: 2 }, () => 0);
    expect(throttle.fail(undefined, 'a', fallback)).toBe(fallback);
    expect(throttle.fail(undefined, 'a', fallback)).toBe(fallback);
    expect((throttle.fail(undefined, 'a', fallback) as StatusError).code).toBe(429);
  });
});

import type { IncomingMessage } from 'node:http';
import { StatusError } from '../../api/errors';
import { PasswordVerifier } from '../password-verifier';
import { BasicAuthenticator } from './basic';
import { LoginThrottle } from './login-throttle';
import type { CredentialSource, LoginAccount } from './sources';

const request = (user: string, password: string, address = '10.0.0.1') =>
  ({
    headers: { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` },
    socket: { remoteAddress: address },
  }) as unknown as IncomingMessage;

/** An authenticator over these accounts, a fake clock and a verify function that records the hashes it checks. */
function setup(accounts: LoginAccount[], limits = { perUser: 3, perAddress: 100 }) {
  const clock = { now: 1_000_000 };
  const checked: string[] = [];
  const verify = async (hash: string, password: string) => {
    checked.push(hash);
    return hash === `hash-of-${password}`;
  };
  const source: CredentialSource = {
    account: (name) => accounts.find((a) => a.name === name),
    tokenUser: () => undefined,
    tokenRefusal: () => 'unknown',
  };
  const throttle = new LoginThrottle(limits, () => clock.now);
  const verifier = new PasswordVerifier({ verify, dummyHash: Promise.resolve('dummy-hash') });
  const basic = new BasicAuthenticator(source, throttle, verifier, () => clock.now);
  const outcome = (user: string, password: string, address?: string) =>
    basic.authenticate(request(user, password, address)).then(
      (info) => info?.name,
      (err: StatusError) => err.code,
    );
  return { basic, clock, checked, outcome };
}

const ada: LoginAccount = { name: 'ada', disabled: false, passwordHash: 'hash-of-right-password' };

describe('BasicAuthenticator', () => {
  it("refuses a locked user's right password with 429 and Retry-After without checking it, until the minute passes", async () => {
    const { basic, clock, checked, outcome } = setup([ada]);
    for (let i = 0; i < 3; i++) expect(await outcome('ada', `guess-${i}`)).toBe(401);
    checked.length = 0;
    const refused = await basic.authenticate(request('ada', 'right-password')).catch((err: StatusError) => err);
    expect(refused).toMatchObject({ code: 429, headers: { 'Retry-After': '60' } });
    expect(await outcome('ada', 'right-password', '10.9.9.9')).toBe(429);
    expect(checked).toEqual([]);
    clock.now += 60_000;
    expect(await outcome('ada', 'right-password')).toBe('ada');
  });

  it('refuses every password from a locked address, whoever it names, without checking it', async () => {
    const bob: LoginAccount = { name: 'bob', disabled: false, passwordHash: 'hash-of-bob-password' };
    const { checked, outcome } = setup([ada, bob], { perUser: 100, perAddress: 2 });
    expect(await outcome('ada', 'wrong', 'x')).toBe(401);
    expect(await outcome('nobody', 'wrong', 'x')).toBe(401);
    checked.length = 0;
    expect(await outcome('bob', 'bob-password', 'x')).toBe(429);
    expect(checked).toEqual([]);
    expect(await outcome('bob', 'bob-password', 'y')).toBe('bob');
  });

  it('lets the right password in below the limit', async () => {
    const { outcome } = setup([ada]);
    expect(await outcome('ada', 'guess-1')).toBe(401);
    expect(await outcome('ada', 'guess-2')).toBe(401);
    expect(await outcome('ada', 'right-password')).toBe('ada');
  });

  it('checks a password for an unknown user, a user without a password and a disabled one, against the dummy hash', async () => {
    const accounts = [
      { name: 'unset', disabled: false },
      { name: 'off', disabled: true, passwordHash: 'hash-of-right-password' },
    ];
    const { checked, outcome } = setup(accounts);
    expect(await outcome('nobody', 'right-password')).toBe(401);
    expect(await outcome('unset', 'right-password')).toBe(401);
    expect(await outcome('off', 'right-password')).toBe(401);
    expect(checked).toEqual(['dummy-hash', 'dummy-hash', 'dummy-hash']);
  });
});

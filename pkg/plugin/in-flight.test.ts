import { InFlight } from './in-flight';

describe('InFlight', () => {
  it('settles at once with nothing under way, and once the last request under way finished', async () => {
    const requests = new InFlight();
    expect(await requests.settled(1000)).toBe(true);
    let finish!: () => void;
    const running = requests.track(() => new Promise<string>((resolve) => (finish = () => resolve('answer'))));
    expect(requests.size).toBe(1);
    let settled: boolean | undefined;
    const waiting = requests.settled(60_000).then((s) => (settled = s));
    await Promise.resolve();
    expect(settled).toBeUndefined();
    finish();
    expect(await running).toBe('answer');
    await waiting;
    expect(settled).toBe(true);
    expect(requests.size).toBe(0);
  });

  it('counts a request that failed as finished', async () => {
    const requests = new InFlight();
    await expect(requests.track(() => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(requests.size).toBe(0);
  });

  it('gives up waiting after the limit, saying so', async () => {
    const requests = new InFlight();
    void requests.track(() => new Promise(() => undefined));
    expect(await requests.settled(10)).toBe(false);
  });
});

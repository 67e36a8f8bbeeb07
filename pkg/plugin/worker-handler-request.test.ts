import type { HostMessage } from './protocol';
import { handlerRequest } from './worker-handler-request';

const message = (over: Partial<Extract<HostMessage, { type: 'request' }>> = {}) => ({
  type: 'request' as const,
  id: 1,
  routeId: 0,
  method: 'GET',
  url: '/apis/people.example.com/v1/people/ada?x=1',
  headers: JSON.stringify([['accept', 'application/json']]),
  params: { name: 'ada' },
  user: { name: 'alice', groups: ['system:authenticated'] },
  ...over,
});
const noBody = () => undefined;
const noClient = () => undefined;

describe('handlerRequest', () => {
  it('is a Request with the method, URL, params and user, and everything else of a Request on demand', () => {
    const req = handlerRequest(message(), noBody, noClient);
    expect(req).toBeInstanceOf(Request);
    expect(req.method).toBe('GET');
    expect(new URL(req.url).searchParams.get('x')).toBe('1');
    expect((req as Request & { params: Record<string, string> }).params).toEqual({ name: 'ada' });
    expect((req as Request & { user: { name: string } }).user.name).toBe('alice');
    expect(req.headers.get('accept')).toBe('application/json');
    expect(req.signal.aborted).toBe(false);
    expect({ ...req }).toEqual({
      params: { name: 'ada' },
      user: { name: 'alice', groups: ['system:authenticated'] },
      client: undefined,
    });
  });

  it('reads a streamed body only when the handler asks for it', async () => {
    let asked = 0;
    const body = () => {
      asked++;
      return new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"a":1}'));
          controller.close();
        },
      });
    };
    const req = handlerRequest(message({ method: 'POST', streamed: true }), body, noClient);
    expect(asked).toBe(0);
    expect(await req.json()).toEqual({ a: 1 });
    expect(asked).toBe(1);
  });

  it('keeps the fields a handler adds, and params and user cannot be replaced', () => {
    const req = handlerRequest(message(), noBody, noClient) as Request & { seen?: boolean };
    req.seen = true;
    expect(req.seen).toBe(true);
    expect(Object.isFrozen((req as unknown as { params: object }).params)).toBe(true);
    expect(() => Object.assign(req, { params: {} })).toThrow(TypeError);
    expect(() => Object.assign(req, { url: 'http://elsewhere/' })).toThrow(TypeError);
  });

  it("makes the caller's client at its first use, once", () => {
    let made = 0;
    const client = { acting: 'alice' };
    const req = handlerRequest(message(), noBody, () => (made++, client)) as Request & { client: unknown };
    expect(made).toBe(0);
    expect(req.client).toBe(client);
    expect(req.client).toBe(client);
    expect(made).toBe(1);
    expect(() => Object.assign(req, { client: {} })).toThrow(TypeError);
  });
});

import type { IncomingMessage } from 'node:http';
import { bearerToken } from './bearer';

const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;
const protocolOf = (token: string) =>
  `base64url.bearer.authorization.k8s.io.${Buffer.from(token).toString('base64url')}`;

describe('bearerToken', () => {
  it('reads Authorization: Bearer', () => {
    expect(bearerToken(request({ authorization: 'Bearer svc_abc ' }))).toBe('svc_abc');
    expect(bearerToken(request({ authorization: 'bearer svc_abc' }))).toBe('svc_abc');
  });

  it('reads nothing from other schemes or no header', () => {
    expect(bearerToken(request({ authorization: 'Basic YTpi' }))).toBeUndefined();
    expect(bearerToken(request({}))).toBeUndefined();
  });

  it("reads a browser's WebSocket token from its subprotocol (Kubernetes' form)", () => {
    const headers = { upgrade: 'websocket', 'sec-websocket-protocol': `svc.watch, ${protocolOf('svc_tok+/=')}` };
    expect(bearerToken(request(headers))).toBe('svc_tok+/=');
  });

  it('ignores the subprotocol on a request that is not a WebSocket upgrade, and when a header is present', () => {
    expect(bearerToken(request({ 'sec-websocket-protocol': protocolOf('x') }))).toBeUndefined();
    const both = { upgrade: 'websocket', authorization: 'Bearer a', 'sec-websocket-protocol': protocolOf('b') };
    expect(bearerToken(request(both))).toBe('a');
  });
});

import { Agent, request as httpRequest } from 'node:http';

/** An answer of the apiserver: its status, its body as text, and the body parsed as JSON (undefined when it is not). */
export interface ApiAnswer {
  status: number;
  text: string;
  json: unknown;
}

/** One request to an apiserver; a JSON body unless `contentType` says otherwise. */
export interface ApiCall {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
  contentType?: string;
  /** Sent as `Authorization`, e.g. `Bearer svc_…`. */
  authorization?: string;
}

/**
 * A small JSON client of one apiserver over a keep-alive agent: what the
 * benchmark's set-up and its polling send (the timed GETs go through
 * ../support/http-load.ts).
 *
 * @example const answer = await new Api('http://127.0.0.1:8080').call({ method: 'GET', path: '/readyz' });
 */
export class Api {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 64 });

  constructor(readonly url: string) {}

  /** Sends `call`; rejects only on a network error. */
  call(call: ApiCall): Promise<ApiAnswer> {
    const body =
      call.body === undefined ? undefined : typeof call.body === 'string' ? call.body : JSON.stringify(call.body);
    const headers: Record<string, string | number> = { Accept: 'application/json' };
    if (call.authorization) headers.Authorization = call.authorization;
    if (body !== undefined) {
      headers['Content-Type'] = call.contentType ?? 'application/json';
      headers['Content-Length'] = Buffer.byteLength(body);
    }
    return new Promise((resolve, reject) => {
      const req = httpRequest(`${this.url}${call.path}`, { method: call.method, headers, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, text, json });
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  /** Sends `call` and answers the parsed body; throws naming the call when the status is not `expect`. */
  async expect<T>(expect: number, call: ApiCall): Promise<T> {
    const answer = await this.call(call);
    if (answer.status !== expect) {
      throw new Error(
        `${call.method} ${this.url}${call.path} answered ${answer.status} (expected ${expect}): ${answer.text.slice(0, 300)}`,
      );
    }
    return answer.json as T;
  }

  /** Closes the kept-alive sockets. */
  close(): void {
    this.agent.destroy();
  }
}

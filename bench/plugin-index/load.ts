import { Agent, request } from 'node:http';

/** POSTs `count` bodies to `url`, `inFlight` at a time on kept-alive connections; resolves to writes a second. */
export async function createMany(
  url: string,
  count: number,
  inFlight: number,
  body: (i: number) => string,
): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: inFlight });
  let next = 0;
  const started = process.hrtime.bigint();
  const lane = async () => {
    while (next < count) {
      const i = next++;
      const { status, text } = await post(url, body(i), agent);
      if (status !== 201) throw new Error(`POST ${url} answered ${status}: ${text}`);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  agent.destroy();
  return count / seconds;
}

function post(url: string, body: string, agent: Agent): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { 'Content-Type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

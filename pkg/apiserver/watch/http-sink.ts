import type { ServerResponse } from 'node:http';
import type { WatchSink } from './stream';

/** A watch over HTTP: 200 with headers flushed at once, then one JSON object per line. */
export function httpSink(res: ServerResponse): WatchSink {
  res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache', 'Transfer-Encoding': 'chunked' });
  res.flushHeaders();
  return {
    send: (line) => { res.write(line); },
    backlog: () => res.writableLength,
    close: () => { res.end(); },
  };
}

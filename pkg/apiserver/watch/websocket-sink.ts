import type { WebSocket } from 'ws';
import type { WatchSink } from './stream';

/** A watch over WebSocket: one event per text message; the socket closes when the watch ends. */
export function websocketSink(ws: WebSocket): WatchSink {
  return {
    send: (events) => {
      if (ws.readyState !== ws.OPEN) return;
      // One text message per event: the line without its newline.
      for (const { line } of events) ws.send(line.subarray(0, line.length - 1), { binary: false });
    },
    backlog: () => ws.bufferedAmount,
    close: () => {
      if (ws.readyState === ws.OPEN) ws.close(1000, 'watch ended');
    },
  };
}

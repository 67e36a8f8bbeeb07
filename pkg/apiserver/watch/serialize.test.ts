import { serializeEvent, serializeWire } from './serialize';
import type { WatchEvent } from '../../storage/watch';

describe('WireEvent', () => {
  it('frames the JSON line as one HTTP chunk whose size counts bytes, not characters', () => {
    const wire = serializeWire('ADDED', { metadata: { name: 'zoë-🦉' } });
    const line = wire.line.toString('utf8');
    expect(line.endsWith('\n')).toBe(true);
    expect(JSON.parse(line)).toEqual({ type: 'ADDED', object: { metadata: { name: 'zoë-🦉' } } });
    const text = wire.chunk.toString('utf8');
    const [size, rest] = [text.slice(0, text.indexOf('\r\n')), text.slice(text.indexOf('\r\n') + 2)];
    expect(parseInt(size, 16)).toBe(wire.line.length);
    expect(rest).toBe(`${line}\r\n`);
  });
});

describe('serializeEvent', () => {
  it('encodes an event once per wire type, however many watchers ask', () => {
    const event: WatchEvent = { type: 'MODIFIED', object: { apiVersion: 'v1', kind: 'P', metadata: { name: 'a' } } };
    const present = jest.fn((o) => o);
    const first = serializeEvent(event, 'MODIFIED', present);
    expect(serializeEvent(event, 'MODIFIED', present)).toBe(first);
    const leaving = serializeEvent(event, 'DELETED', present);
    expect(leaving).not.toBe(first);
    expect(JSON.parse(leaving.line.toString()).type).toBe('DELETED');
    expect(present).toHaveBeenCalledTimes(2);
  });
});

import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { StatusError } from '../api/errors';
import { MAX_BODY_FIELDS, MAX_NESTING_DEPTH } from '../util/json-limits';
import { assertBodyType, decodeBody, readBody } from './body';

const nested = (depth: number) => Buffer.from(`{"spec":{"roles":${'['.repeat(depth)}${']'.repeat(depth)}}}`);

describe('decodeBody', () => {
  it('decodes JSON and YAML', () => {
    expect(decodeBody(Buffer.from('{"a":1}'), 'application/json')).toEqual({ a: 1 });
    expect(decodeBody(Buffer.from('a: 1\n'), 'application/yaml')).toEqual({ a: 1 });
  });

  it('refuses JSON nested deeper than the limit with 400, whatever handler reads it next', () => {
    expect(decodeBody(nested(MAX_NESTING_DEPTH - 3), 'application/json')).toBeDefined();
    const deep = () => decodeBody(nested(5000), 'application/json');
    expect(deep).toThrow(StatusError);
    expect(deep).toThrow(`nested more than ${MAX_NESTING_DEPTH} levels deep`);
    try {
      deep();
    } catch (err) {
      expect((err as StatusError).code).toBe(400);
    }
  });

  it('answers 415 for a media type it does not read, and 400 for an empty body', () => {
    expect(() => decodeBody(Buffer.from('{}'), 'text/plain')).toThrow(expect.objectContaining({ code: 415 }));
    expect(() => decodeBody(Buffer.from('{}'), ';;;==/')).toThrow(expect.objectContaining({ code: 415 }));
    expect(decodeBody(Buffer.from('{}'), undefined)).toEqual({});
    expect(() => decodeBody(Buffer.from('  '), 'application/json')).toThrow(expect.objectContaining({ code: 400 }));
  });

  it('refuses a body of more than MAX_BODY_FIELDS fields with 413, in JSON and in YAML', () => {
    const labels = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v']));
    // metadata + labels + spec: three fields besides the labels.
    const body = (n: number) => ({ metadata: { labels: labels(n) }, spec: {} });
    const json = (n: number) => Buffer.from(JSON.stringify(body(n)));
    expect(decodeBody(json(MAX_BODY_FIELDS - 3), 'application/json')).toBeDefined();
    expect(() => decodeBody(json(MAX_BODY_FIELDS - 2), 'application/json')).toThrow(
      expect.objectContaining({ code: 413, reason: 'RequestEntityTooLarge' }),
    );
    const yaml = Buffer.from(
      `metadata:\n  labels:\n${Object.keys(labels(MAX_BODY_FIELDS))
        .map((k) => `    ${k}: v\n`)
        .join('')}`,
    );
    expect(() => decodeBody(yaml, 'application/yaml')).toThrow(expect.objectContaining({ code: 413 }));
  });

  it('refuses a YAML body of too many fields while parsing it (a mapping) or right after (a list)', () => {
    const mapping = `spec:\n${Array.from({ length: 150_000 }, (_, i) => `  f${i}: 1\n`).join('')}`;
    expect(() => decodeBody(Buffer.from(mapping), 'application/yaml')).toThrow(expect.objectContaining({ code: 413 }));
    const list = `spec:\n${Array.from({ length: MAX_BODY_FIELDS }, () => '  - 1\n').join('')}`;
    expect(() => decodeBody(Buffer.from(list), 'application/yaml')).toThrow(expect.objectContaining({ code: 413 }));
  });

  it('refuses 150,000 unknown fields with 413 as soon as they are decoded', () => {
    const fields = Object.fromEntries(Array.from({ length: 150_000 }, (_, i) => [`f${i}`, i]));
    const raw = Buffer.from(JSON.stringify({ metadata: { name: 'x' }, spec: fields }));
    expect(() => decodeBody(raw, 'application/json')).toThrow(expect.objectContaining({ code: 413 }));
  });
});

/** A request as `readBody` sees it: a stream of `body` with these headers. */
const request = (body: string, headers: Record<string, string>): IncomingMessage =>
  Object.assign(Readable.from(body === '' ? [] : [Buffer.from(body)]), { headers }) as unknown as IncomingMessage;

describe('a body without a media type', () => {
  it('is read as JSON from a client that is no browser (curl -T)', async () => {
    const raw = await readBody(request('{"a":1}', { 'content-length': '7' }), 1024);
    expect(decodeBody(raw, undefined)).toEqual({ a: 1 });
  });

  it.each([
    ['Origin', { origin: 'https://elsewhere.example' }],
    ['Sec-Fetch-Site', { 'sec-fetch-site': 'cross-site' }],
  ])('is 415 from a browser (it sends %s), which a page of any site can make send one', async (_what, browser) => {
    await expect(readBody(request('{"a":1}', { 'content-length': '7', ...browser }), 1024)).rejects.toMatchObject({
      code: 415,
      reason: 'UnsupportedMediaType',
    });
    expect(() => assertBodyType(request('{}', { 'content-length': '2', ...browser }), ['application/json'])).toThrow(
      expect.objectContaining({ code: 415 }),
    );
  });

  it('passes when there is no body at all (a DELETE from the console)', async () => {
    const browser = { origin: 'https://svc.example' };
    await expect(readBody(request('', browser), 1024)).resolves.toHaveLength(0);
    expect(() => assertBodyType(request('', browser), ['application/json'])).not.toThrow();
  });
});

describe('assertBodyType', () => {
  it.each(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'])(
    'refuses %s, which a cross-site form can send, unless it is accepted',
    (type) => {
      const req = () => request('a=1', { 'content-type': type, 'content-length': '3' });
      expect(() => assertBodyType(req(), ['application/json', 'application/yaml'])).toThrow(
        expect.objectContaining({ code: 415 }),
      );
      expect(() => assertBodyType(req(), ['application/json', type.split(';')[0]])).not.toThrow();
    },
  );

  it('accepts any YAML type where YAML is accepted, with parameters', () => {
    const req = request('a: 1', { 'content-type': 'application/x-yaml; charset=utf-8', 'content-length': '4' });
    expect(() => assertBodyType(req, ['application/json', 'application/yaml'])).not.toThrow();
  });
});

import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { ApiObject } from '../../api/object';
import type { ResourceType } from '../interface';
import { redisCall } from './connection';
import { parseObject } from './object-codec';
import type { TypeKeys } from './keys';

/** How a store keeps objects in its objects hash (ADR 0026): the JSON as is, or deflated with a type's dictionary. */
export type ObjectCompression = 'none' | 'deflate';

/** The few Redis calls the dictionaries take. */
export interface DictionaryClient {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, nx: 'NX'): Promise<unknown>;
}

/** What a compressed stored object starts with; a stored JSON object starts with `{`. */
const COMPRESSED = 'z';

/**
 * Writes objects into, and reads them from, the objects hash of a Redis
 * store. Uncompressed, a stored object is its JSON. With `deflate`, it is
 * `z<revision>:<base64 of the JSON deflated>`, the JSON's resourceVersion
 * left empty (the write script splices the revision into the prefix), deflated
 * against the type's dictionary: the JSON of the first object ever written
 * to the type, kept under `<type keys>.dictionary` and never changed (objects
 * of one type share most of their bytes, so the deflated form is a few dozen
 * bytes). Either form reads back in either setting, so the setting can change
 * on a running store; objects are rewritten in the new form when next written.
 */
export class StoredObjects {
  private readonly dictionaries = new Map<ResourceType, Buffer>();

  constructor(
    private readonly client: DictionaryClient,
    private readonly keysOf: (type: ResourceType) => TypeKeys,
    readonly compression: ObjectCompression,
  ) {}

  /**
   * The stored form of `object` as the write script takes it: the parts
   * before and after the revision the script fills in (`['', '']`: store the
   * JSON as is).
   */
  writeParts(type: ResourceType, object: ApiObject): [string, string] | Promise<[string, string]> {
    if (this.compression === 'none') return AS_JSON;
    const dictionary = this.dictionaries.get(type);
    if (dictionary) return deflatedParts(object, dictionary);
    return this.dictionary(type, object).then((made) => deflatedParts(object, made));
  }

  /** The objects stored values hold, each at its own revision or at `revision` when given. */
  async read(type: ResourceType, stored: readonly string[], revision?: string): Promise<ApiObject[]> {
    const dictionary = stored.some(isCompressed) ? await this.dictionary(type) : undefined;
    return stored.map((value) => decode(type, value, dictionary, revision));
  }

  /**
   * One stored object (see `read`), without waiting when it needs no
   * dictionary or the dictionary is known (the common case, kept free of
   * promises for the read paths).
   */
  readOne(type: ResourceType, stored: string, revision?: string): ApiObject | Promise<ApiObject> {
    if (!isCompressed(stored)) return parseObject(stored, revision);
    const dictionary = this.dictionaries.get(type);
    if (dictionary) return decode(type, stored, dictionary, revision);
    return this.read(type, [stored], revision).then(([object]) => object);
  }

  /**
   * A stored object's JSON text when it is stored as its JSON (what `readOne` would parse, at its own revision);
   * undefined when it is compressed.
   */
  json(stored: string): string | undefined {
    return isCompressed(stored) ? undefined : stored;
  }

  /**
   * The type's dictionary: known, or read from Redis, or (given a first object
   * to write) made from that object. Two processes that both make one agree on
   * whichever was set first.
   */
  private async dictionary(type: ResourceType, first?: ApiObject): Promise<Buffer> {
    const known = this.dictionaries.get(type);
    if (known) return known;
    const key = this.keysOf(type).dictionary;
    const what = `the compression dictionary of ${type}`;
    let stored = await redisCall(what, () => this.client.get(key));
    if (stored === null && first) {
      const json = jsonWithoutRevision(first);
      await redisCall(what, () => this.client.set(key, json, 'NX'));
      stored = await redisCall(what, () => this.client.get(key));
    }
    if (stored === null) {
      throw new Error(`${type} holds compressed objects but no dictionary to read them with`);
    }
    const dictionary = Buffer.from(stored);
    this.dictionaries.set(type, dictionary);
    return dictionary;
  }
}

/** The write script's parts for an object stored as its JSON. */
const AS_JSON: [string, string] = ['', ''];

const isCompressed = (stored: string): boolean => stored.startsWith(COMPRESSED);

/** The write script's parts for an object deflated against `dictionary`. */
function deflatedParts(object: ApiObject, dictionary: Buffer): [string, string] {
  const deflated = deflateRawSync(Buffer.from(jsonWithoutRevision(object)), { dictionary });
  return [COMPRESSED, `:${deflated.toString('base64')}`];
}

/** The JSON of an object with an empty resourceVersion (where a compressed object's revision is kept apart). */
const jsonWithoutRevision = (object: ApiObject): string =>
  JSON.stringify({ ...object, metadata: { ...object.metadata, resourceVersion: '' } });

function decode(type: ResourceType, stored: string, dictionary: Buffer | undefined, revision?: string): ApiObject {
  if (!isCompressed(stored)) return parseObject(stored, revision);
  const at = stored.indexOf(':');
  if (dictionary === undefined || at < 0) throw new Error(`a stored object of ${type} is garbled`);
  const json = inflateRawSync(Buffer.from(stored.slice(at + 1), 'base64'), { dictionary }).toString();
  return parseObject(json, revision ?? stored.slice(COMPRESSED.length, at));
}

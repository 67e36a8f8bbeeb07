import { gzipSync } from 'node:zlib';

/** One entry of a test archive: a file (content), a folder (path ending in `/`) or a symbolic link (`link`). */
export interface TgzEntry {
  path: string;
  content?: string;
  link?: string;
}

/** A gzipped ustar archive of the entries, as `tar czf` writes one (paths up to 100 bytes). */
export function makeTgz(entries: TgzEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const data = Buffer.from(entry.content ?? '');
    const type = entry.link !== undefined ? '2' : entry.path.endsWith('/') ? '5' : '0';
    const header = Buffer.alloc(512);
    header.write(entry.path, 0, 100, 'utf8');
    header.write('0000644\0', 100);
    header.write('0000000\0', 108);
    header.write('0000000\0', 116);
    header.write(`${(type === '0' ? data.length : 0).toString(8).padStart(11, '0')}\0`, 124);
    header.write('00000000000\0', 136);
    header.write('        ', 148);
    header.write(type, 156);
    header.write(entry.link ?? '', 157, 100, 'utf8');
    header.write('ustar\x0000', 257, 'latin1');
    let sum = 0;
    for (const byte of header) sum += byte;
    header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
    blocks.push(header);
    if (type === '0') blocks.push(data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}

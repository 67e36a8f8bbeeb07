/**
 * The texts of a `Warning` response header (RFC 7234: `299 - "text"`, several
 * joined by `, ` when the server sent more than one), unquoted:
 * `299 - "unknown field \"spec.nmae\""` → `['unknown field "spec.nmae"']`.
 * A value not in that form is answered whole, so that nothing is lost.
 */
export function warningTexts(header: string | null): string[] {
  if (!header?.trim()) return [];
  const texts: string[] = [];
  const pattern = /\s*(\d{3})\s+\S+\s+"((?:[^"\\]|\\.)*)"(?:\s+"[^"]*")?\s*(?:,|$)/gy;
  let match: RegExpExecArray | null;
  let end = 0;
  while ((match = pattern.exec(header)) !== null) {
    texts.push(latin1ToUtf8(match[2].replace(/\\(.)/g, '$1')));
    end = pattern.lastIndex;
    if (end >= header.length) break;
  }
  return end >= header.trimEnd().length ? texts : [header.trim()];
}

/** Header values arrive as Latin-1 code units; the server writes UTF-8 bytes there (as Kubernetes does). */
function latin1ToUtf8(text: string): string {
  return [...text].some((c) => c.charCodeAt(0) > 0xff) ? text : Buffer.from(text, 'latin1').toString('utf8');
}

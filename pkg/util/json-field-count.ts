const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * How many fields (object keys plus array elements) a JSON text holds, counted on the text before it is parsed and
 * stopping as soon as the count passes `max`, so that a body of far too many fields costs one short scan and no
 * parse. Exact for valid JSON; for invalid JSON only an estimate (the parse refuses it anyway).
 * @example countJsonFields('{"a":[1,2],"b":{}}', 100) // → 4
 */
export function countJsonFields(text: string, max = Infinity): number {
  const scan = new FieldScan();
  for (let i = 0; i < text.length && scan.fields <= max; i++) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) continue;
    scan.token(c);
    if (c === QUOTE) i = endOfString(text, i);
  }
  return scan.fields;
}

/** The count so far, and which containers the scan is in. */
class FieldScan {
  fields = 0;
  private readonly inArray: boolean[] = [];
  private arrayJustOpened = false;

  /** Counts what the next character outside a string starts or separates. */
  token(c: number): void {
    // The first element of an array has no comma before it.
    if (this.arrayJustOpened && c !== CLOSE_ARRAY) this.fields++;
    this.arrayJustOpened = c === OPEN_ARRAY;
    if (c === COLON || (c === COMMA && this.inArray[this.inArray.length - 1])) this.fields++;
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) this.inArray.push(c === OPEN_ARRAY);
    else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) this.inArray.pop();
  }
}

/** The index of the quote that closes the string opening at `start` (one not escaped by a backslash). */
function endOfString(text: string, start: number): number {
  let end = start;
  for (;;) {
    end = text.indexOf('"', end + 1);
    if (end < 0) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return end;
  }
}

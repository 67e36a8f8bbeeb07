import type { CliIo } from './io';

/**
 * What svcctl does with the server's `Warning` headers: prints each on stderr
 * as kubectl does, `Warning: unknown field "spec.nmae"`, once per command even
 * when several requests draw the same one (apply's dry-run preview, then its update).
 */
export function warningPrinter(io: Pick<CliIo, 'stderr'>): (text: string) => void {
  const printed = new Set<string>();
  return (text) => {
    if (printed.has(text)) return;
    printed.add(text);
    io.stderr(`Warning: ${text}\n`);
  };
}

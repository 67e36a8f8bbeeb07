/**
 * The requirements of a label or field selector, each on its own
 * (`team=engines,tier in (gold,silver)` → `team=engines`, `tier in (gold,silver)`):
 * split at commas outside parentheses.
 */
export function selectorParts(selector: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of selector) {
    if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
      continue;
    }
    if (ch === '(') depth++;
    if (ch === ')') depth = Math.max(0, depth - 1);
    current += ch;
  }
  parts.push(current);
  return parts.map((p) => p.trim()).filter(Boolean);
}

/** The selector without one of its requirements. */
export const withoutPart = (selector: string, part: string) =>
  selectorParts(selector)
    .filter((p) => p !== part)
    .join(',');

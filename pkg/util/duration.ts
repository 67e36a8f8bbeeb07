const UNITS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400 };

/** Parses a duration flag into seconds: `90`, `90s`, `30m`, `1h`, `7d`, `500ms`. Throws on anything else. */
export function parseDurationSeconds(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(text.trim());
  if (!match) throw new Error(`"${text}" is not a duration; use e.g. 90s, 30m, 1h or 7d`);
  return Number(match[1]) * UNITS[match[2] ?? 's'];
}

/**
 * A one-line progress bar on a terminal, e.g. `[##########----------] 12/40 persons/ada`, redrawn in place
 * (carriage return, erase line). Other output on the same terminal clears it first (`clear`), so the bar
 * is always the last line. A small renderer of our own: svcctl adds no runtime dependency for it.
 */
export class ProgressBar {
  private shown = false;

  constructor(
    private readonly write: (text: string) => void,
    private readonly total: number,
    /** Columns the bar itself takes (the count and label follow it). */
    private readonly width = 30,
  ) {}

  /** Draws `done` of the total, with a label (cut to keep the line short). */
  update(done: number, label = ''): void {
    const ratio = this.total > 0 ? Math.min(1, done / this.total) : 1;
    const filled = Math.round(ratio * this.width);
    const bar = `[${'#'.repeat(filled)}${'-'.repeat(this.width - filled)}]`;
    const text = `${bar} ${done}/${this.total}${label ? ` ${label.slice(0, 40)}` : ''}`;
    this.write(`${ERASE}${text}`);
    this.shown = true;
  }

  /** Erases the bar, if drawn. */
  clear(): void {
    if (!this.shown) return;
    this.write(ERASE);
    this.shown = false;
  }
}

/** Back to the line's start, erase to its end. */
const ERASE = '\r\x1b[K';

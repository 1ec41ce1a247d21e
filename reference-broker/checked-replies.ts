/**
 * Replies that already passed their tool's output schema, by exact JSON text. An agent polls
 * lomi_operation_get until its operation settles and mostly gets the very same reply back: the same
 * text for the same tool passes the same schema, so the check runs once per distinct reply, not per
 * call. Bounded: the oldest entries go first, and a long reply (a file, a capture) is not kept.
 */
export class CheckedReplies {
  private readonly seen = new Set<string>();

  constructor(
    private readonly capacity = 256,
    private readonly maxChars = 8192,
  ) {}

  has(tool: string, text: string): boolean {
    return this.seen.has(`${tool}\n${text}`);
  }

  add(tool: string, text: string): void {
    if (text.length > this.maxChars) return;
    const oldest = this.seen.values().next();
    if (this.seen.size >= this.capacity && !oldest.done) this.seen.delete(oldest.value);
    this.seen.add(`${tool}\n${text}`);
  }
}

// An incremental parser for the text/event-stream format (the parts toolgate's /v1/events uses).

/** One server-sent event. */
export interface SseMessage {
  event: string;
  data: string;
  id?: string;
}

/**
 * Feeds chunks in, gets complete events out. Follows the WHATWG rules that matter here: lines end in
 * LF, CRLF or CR; a blank line dispatches; `:` lines are comments (keep-alives); `data` lines join
 * with LF; one space after the colon is dropped; an event without data is not dispatched.
 */
export class SseParser {
  private buffer = '';
  private event = '';
  private data: string[] = [];
  private id: string | undefined;

  /** Parses a chunk; returns the events it completed. */
  push(chunk: string): SseMessage[] {
    this.buffer += chunk;
    const out: SseMessage[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      // A CR at the very end may be the first half of CRLF: wait for the next chunk.
      if (!match || (match[0] === '\r' && match.index === this.buffer.length - 1)) break;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      const message = this.line(line);
      if (message) out.push(message);
    }
    return out;
  }

  private line(line: string): SseMessage | undefined {
    if (line === '') {
      const message = this.data.length
        ? { event: this.event || 'message', data: this.data.join('\n'), id: this.id }
        : undefined;
      this.event = '';
      this.data = [];
      return message;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'id') this.id = value;
    return undefined;
  }
}

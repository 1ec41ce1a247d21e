/**
 * The text lines of a byte stream, for reading only: the chunks themselves are passed on untouched
 * before they are read here.
 */
export function lineReader(onLine: (line: string) => void): (chunk: Buffer) => void {
  let pending: Buffer[] = [];
  return (chunk) => {
    let rest = chunk;
    for (let end = rest.indexOf(0x0a); end !== -1; end = rest.indexOf(0x0a)) {
      onLine(Buffer.concat([...pending, rest.subarray(0, end)]).toString("utf8"));
      pending = [];
      rest = rest.subarray(end + 1);
    }
    if (rest.length > 0) pending.push(rest);
  };
}

/** A line's JSON value, or undefined when it is not JSON. */
export function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A text that is not JSON is skipped: the other side answers it as it would without the recorder. */
function parsed(text: string, onMessage: (value: unknown) => void): void {
  if (text.trim() === "") return;
  const value = jsonOf(text);
  if (value !== undefined) onMessage(value);
}

/** MCP over stdio: one JSON-RPC message (or batch) a line. */
export const jsonLines = (onMessage: (value: unknown) => void) => lineReader((line) => parsed(line, onMessage));

/**
 * Server-sent events (a Streamable HTTP response or GET stream): the `data:` lines of each event,
 * joined, are one JSON-RPC message.
 */
export function sseMessages(onMessage: (value: unknown) => void): (chunk: Buffer) => void {
  let data: string[] = [];
  return lineReader((line) => {
    const text = line.replace(/\r$/, "");
    if (text === "") {
      parsed(data.join("\n"), onMessage);
      data = [];
    } else if (text.startsWith("data:")) data.push(text.slice(5).replace(/^ /, ""));
  });
}

import { readFileSync } from "node:fs";
import { configError } from "../harness-error.js";
import { messageOf } from "../../protocol/errors.js";

/**
 * What the harness sends with every HTTP request to a broker at a URL: the bearer token
 * (LOMI_BROKER_TOKEN, which --broker-token sets) and the headers a gateway in front of it wants
 * (LOMI_BROKER_HEADERS, a JSON object, which --header and --header-file set). Both go through the
 * environment, so worker processes inherit them, and neither ever appears in run parameters or reports.
 */
export const HEADERS_ENV = "LOMI_BROKER_HEADERS";

/** An HTTP header name (RFC 9110 token) and a value on one line. */
const NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** `Name: value` (or `Name:value`) as a header, or a configuration error saying where and why. */
export function parseHeader(text: string, where: string): [string, string] {
  const colon = text.indexOf(":");
  const name = colon < 0 ? "" : text.slice(0, colon).trim();
  const value = colon < 0 ? "" : text.slice(colon + 1).trim();
  if (!NAME.test(name)) throw configError(`${where}: a header is NAME:VALUE with a header name before the colon${colon < 0 ? "" : `, not "${name}"`}`);
  if (/[\r\n\0]/.test(value)) throw configError(`${where}: the value of the header ${name} holds a line break`);
  return [name, value];
}

/** The headers of a --header-file: a `Name: value` line each; blank lines and lines starting with # are skipped. */
export function readHeaderFile(file: string): Array<[string, string]> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw configError(`--header-file ${file}: ${messageOf(error)}`);
  }
  return text.split(/\r?\n/).flatMap((line, i) => (line.trim() === "" || line.trimStart().startsWith("#") ? [] : [parseHeader(line, `${file}:${i + 1}`)]));
}

export function brokerRequestInit(): RequestInit | undefined {
  const token = process.env.LOMI_BROKER_TOKEN;
  const extra = process.env[HEADERS_ENV] ? (JSON.parse(process.env[HEADERS_ENV]) as Record<string, string>) : {};
  const headers = { ...extra, ...(token ? { Authorization: `Bearer ${token}` } : {}) };
  return Object.keys(headers).length > 0 ? { headers } : undefined;
}

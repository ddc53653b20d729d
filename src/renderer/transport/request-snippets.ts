/**
 * "Copy as curl" and "Copy as fetch" for a request the console sent. A bearer token is replaced by
 * a variable ($JQL_TOKEN) so a snippet pasted into a chat or a ticket does not leak the secret.
 */
import type { HttpRequestSpec } from './transport.ts';

const BEARER = /^Bearer\s+.+$/i;

function redactedHeaders(headers: Record<string, string>, placeholder: string): Array<[string, string]> {
  return Object.entries(headers).map(([name, value]) =>
    name.toLowerCase() === 'authorization' && BEARER.test(value) ? [name, `Bearer ${placeholder}`] : [name, value],
  );
}

/** POSIX shell single-quoting: the only character to handle inside '…' is ' itself. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

export function toCurl(request: HttpRequestSpec): string {
  const lines = [`curl -X ${request.method} ${shellQuote(request.url)}`];
  for (const [name, value] of redactedHeaders(request.headers, '$JQL_TOKEN')) {
    // The token variable must expand, so that one header is double-quoted.
    lines.push(value.includes('$JQL_TOKEN') ? `-H "${name}: ${value}"` : `-H ${shellQuote(`${name}: ${value}`)}`);
  }
  if (request.withCredentials) lines.push(`-b cookies.txt -c cookies.txt`);
  if (request.body !== undefined) lines.push(`--data-raw ${shellQuote(request.body)}`);
  return lines.join(' \\\n  ');
}

export function toFetch(request: HttpRequestSpec): string {
  const headerLines = redactedHeaders(request.headers, '${JQL_TOKEN}').map(([name, value]) =>
    value.includes('${JQL_TOKEN}') ? `    ${JSON.stringify(name)}: \`${value}\`,` : `    ${JSON.stringify(name)}: ${JSON.stringify(value)},`,
  );
  const parts = [`  method: ${JSON.stringify(request.method)},`, `  headers: {\n${headerLines.join('\n')}\n  },`];
  if (request.withCredentials) parts.push(`  credentials: "include",`);
  if (request.body !== undefined) parts.push(`  body: JSON.stringify(${prettyBody(request.body)}),`);
  const needsToken = headerLines.some((l) => l.includes('${JQL_TOKEN}'));
  const prelude = needsToken ? 'const JQL_TOKEN = process.env.JQL_TOKEN;\n' : '';
  return `${prelude}const response = await fetch(${JSON.stringify(request.url)}, {\n${parts.join('\n')}\n});\nconst envelope = await response.json();`;
}

/** The body as a JavaScript literal when it is JSON (readable), else as a string. */
function prettyBody(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2).replace(/\n/g, '\n  ');
  } catch {
    return `JSON.parse(${JSON.stringify(body)})`;
  }
}

// URLs that stand for local content: a `file:` URL's path (what a fetch tool, curl or a browser reads when given one),
// and a `data:` URL's text (code a runtime imports from its command line).

/** The local path a `file:` URL names (`file:///etc/x`, `file://localhost/etc/x`), else undefined. */
export function fileUrlPath(url: string): string | undefined {
  if (!/^file:/i.test(url.trim())) return undefined;
  try {
    const parsed = new URL(url.trim());
    return parsed.protocol === 'file:' ? decodeURIComponent(parsed.pathname) || '/' : undefined;
  } catch {
    return url.trim().replace(/^file:(\/\/[^/]*)?/i, '') || '/';
  }
}

/** Percent-escapes decoded; a stray `%` leaves the text as written. */
export function decodePercent(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The text a `data:` URL holds (`data:text/javascript,…`, `;base64`), else undefined. */
export function dataUrlText(url: string): string | undefined {
  const data = /^data:[^,]*?(;base64)?,(.*)$/s.exec(url);
  if (!data) return undefined;
  return data[1] ? Buffer.from(data[2]!, 'base64').toString('utf8') : decodePercent(data[2]!);
}

// A `file:` URL's local path: what a fetch tool, curl or a browser reads when given one.

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

// One JSON POST over node:http(s), for `toolgate hook`: the global fetch loads undici, about 0.1 s of a
// hook's start-up on every tool call, where node:http is already part of Node's snapshot.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

/** What came back: the status, the headers and the body as text. */
export interface PostedResponse {
  status: number;
  ok: boolean;
  headers: IncomingHttpHeaders;
  text: string;
}

/** Bodies larger than this are cut off and answered as an error (a hook answer is a few hundred bytes). */
const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

/** A request that got no answer in time; `name` matches AbortSignal.timeout's error. */
export class PostTimeoutError extends Error {
  override name = 'TimeoutError';
}

/** POSTs `body` to `url`; rejects on a network failure, a timeout (PostTimeoutError) or an oversized answer. */
export async function postJson(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<PostedResponse> {
  const target = new URL(url);
  // node:https (and TLS) only for an https sidecar; a dynamic import would also start the ES module loader.
  const request = target.protocol === 'https:' ? (await import('node:https')).request : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      target,
      { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_RESPONSE_BYTES)
            req.destroy(new Error(`the answer is larger than ${MAX_RESPONSE_BYTES} bytes`));
          else chunks.push(chunk);
        });
        res.on('end', () => {
          clearTimeout(timer);
          const status = res.statusCode ?? 0;
          resolve({
            status,
            ok: status >= 200 && status < 300,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          });
        });
        res.on('error', fail);
      },
    );
    const timer = setTimeout(() => req.destroy(new PostTimeoutError(`no answer within ${timeoutMs} ms`)), timeoutMs);
    function fail(error: Error): void {
      clearTimeout(timer);
      reject(error);
    }
    req.on('error', fail);
    req.end(body);
  });
}

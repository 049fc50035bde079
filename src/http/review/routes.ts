// GET /review and its sign-in: the page, its script and style, POST /review/login and /review/logout.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { Context, Hono } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import type { AppDeps } from '../app.ts';
import type { AppEnv } from '../auth.ts';
import { clientAddress, LoginThrottle } from './login-throttle.ts';
import { isSameOriginRequest, isSecureRequest } from './origin.ts';
import { auditPage } from './audit-page.ts';
import { ReviewLoginSchema, ReviewLogoutSchema } from './forms.ts';
import { layout, loginPage, reviewPage, type Html } from './pages.ts';
import { ReviewSessions, sameSecret, SESSION_COOKIE, sessionOf } from './session.ts';

/** A static file of the page, read once, with its gzip form (the script is ~18 KB, ~5 KB compressed). */
interface Asset {
  type: string;
  body: Buffer;
  gzip: Buffer;
}

function asset(name: string, type: string): Asset {
  const body = readFileSync(new URL(`./assets/${name}`, import.meta.url));
  return { type, body, gzip: gzipSync(body, { level: 9 }) };
}

/**
 * Headers of every review response: no framing (a framed page could be clicked into approving), no
 * outside requests (everything is served from here), nothing cached (the page holds a CSRF token).
 */
const PAGE_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  // Not no-referrer: under it Chromium sends `Origin: null` on the page's own form posts.
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
};

/** Options: the session store and the sign-in throttle (tests pass their own clocks). */
export interface ReviewOptions {
  sessions?: ReviewSessions;
  throttle?: LoginThrottle;
}

/**
 * Registers the review page. Its middleware hands every request the app's session store, where
 * `reviewCookieAuth` (the `alternateAuth` of createApp) finds it; without that hook the cookie
 * authenticates nothing, so forgetting to wire it fails closed.
 */
export function registerReview(app: Hono<AppEnv>, deps: AppDeps, options: ReviewOptions = {}): void {
  const sessions = options.sessions ?? new ReviewSessions();
  const throttle = options.throttle ?? new LoginThrottle();
  const assets: Record<string, Asset> = {
    'app.js': asset('review.js', 'text/javascript; charset=utf-8'),
    'render.js': asset('render.js', 'text/javascript; charset=utf-8'),
    'app.css': asset('review.css', 'text/css; charset=utf-8'),
  };

  app.use('*', async (c, next) => {
    c.set('reviewSessions', sessions);
    await next();
  });

  app.get('/review', (c) => {
    c.header('vary', 'cookie');
    const session = sessionOf(c);
    if (!session) return page(c, loginPage());
    return page(c, reviewPage({ reviewer: session.identity.name, csrfToken: session.csrfToken }));
  });

  app.post('/review/login', async (c) => {
    // A form posted from another site would sign the victim in as the attacker (login CSRF).
    if (!isSameOriginRequest(c)) return page(c, loginPage('Sign-in must come from this page.'), 403);
    const address = clientAddress(c);
    const token = ReviewLoginSchema.safeParse(await readForm(c)).data?.token ?? '';
    const identity = token ? deps.auth.identify(token) : undefined;
    // The throttle holds back failures only: the reviewer's own token signs in even while an agent on the same
    // address floods the form with bad ones (issue 23, row 5).
    const wait = identity?.role === 'reviewer' ? 0 : throttle.retryAfterSeconds(address);
    if (wait > 0) {
      c.header('retry-after', String(wait));
      return page(c, loginPage(`Too many failed sign-ins; try again in ${wait} s.`), 429);
    }
    if (!identity) {
      throttle.failed(address);
      return page(c, loginPage(token ? 'That token is not valid.' : 'Enter the reviewer token.'), 401);
    }
    if (identity.role !== 'reviewer') {
      throttle.failed(address);
      return page(c, loginPage('That is an agent token; the review page needs a reviewer token.'), 403);
    }
    throttle.succeeded(address);
    const session = sessions.create(identity);
    setCookie(c, SESSION_COOKIE, session.id, {
      path: '/',
      httpOnly: true,
      sameSite: 'Strict',
      secure: isSecureRequest(c),
      maxAge: sessions.maxAgeSeconds,
    });
    return c.redirect('/review', 303);
  });

  app.post('/review/logout', async (c) => {
    const session = sessionOf(c);
    if (session) {
      const csrf = ReviewLogoutSchema.safeParse(await readForm(c)).data?.csrf;
      // Signing someone out is harmless, but only the page itself may do it.
      if (!isSameOriginRequest(c) || !sameSecret(csrf, session.csrfToken)) {
        return page(c, loginPage('Sign-out must come from the review page.'), 403);
      }
      sessions.delete(session.id);
    }
    deleteCookie(c, SESSION_COOKIE, { path: '/', secure: isSecureRequest(c) });
    return c.redirect('/review', 303);
  });

  app.get('/review/audit', async (c) => {
    if (!sessionOf(c)) return c.redirect('/review', 303);
    return page(c, layout('toolgate audit log', await auditPage(c, deps.toolgate.store)));
  });

  for (const [name, file] of Object.entries(assets)) {
    app.get(`/review/${name}`, (c) => {
      const gzip = /\bgzip\b/.test(c.req.header('accept-encoding') ?? '');
      const headers: Record<string, string> = {
        ...PAGE_HEADERS,
        'content-type': file.type,
        'cache-control': 'no-cache',
        vary: 'accept-encoding',
      };
      if (gzip) headers['content-encoding'] = 'gzip';
      return c.body(new Uint8Array(gzip ? file.gzip : file.body), 200, headers);
    });
  }
}

async function page(c: Context<AppEnv>, body: Html, status: 200 | 401 | 403 | 429 = 200): Promise<Response> {
  return c.html(await body, status, PAGE_HEADERS);
}

/** The urlencoded or multipart form body; anything else (or a malformed one) reads as empty. */
async function readForm(c: Context<AppEnv>): Promise<Record<string, unknown>> {
  try {
    return await c.req.parseBody();
  } catch {
    return {};
  }
}

// The review page's HTML: the sign-in form and the page shell the script fills (hono/html escapes every value).
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';

/** Rendered HTML, possibly still resolving. */
export type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

/** The document around every review page: own style only, no outside requests. */
export function layout(title: string, body: Html, head: Html | string = ''): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/review/app.css">
${head}
</head>
<body>
${body}
</body>
</html>`;
}

/** The sign-in form: one field, `token`; Enter submits. `message` explains a failed attempt. */
export function loginPage(message?: string): Html {
  return layout(
    'toolgate review: sign in',
    html`<main class="login">
<h1>toolgate <span class="sub">review</span></h1>
<form method="post" action="/review/login">
  <label for="token">Reviewer token</label>
  <input id="token" name="token" type="password" autocomplete="current-password" required autofocus spellcheck="false">
  ${message ? html`<p class="error" role="alert">${message}</p>` : ''}
  <button type="submit">Sign in</button>
  <p class="hint">The reviewer token is in <code>&lt;data-dir&gt;/tokens.json</code> (<code>reviewer</code>), or set with <code>TOOLGATE_REVIEWER_TOKEN</code>.</p>
</form>
</main>`,
  );
}

/** What the signed-in page needs to know. */
export interface ReviewPageModel {
  reviewer: string;
  csrfToken: string;
}

/** The signed-in page: queue, dialog and history; /review/app.js renders the approvals into it. */
export function reviewPage(model: ReviewPageModel): Html {
  const head = html`<meta name="csrf-token" content="${model.csrfToken}">
<script type="module" src="/review/app.js"></script>`;
  return layout(
    'toolgate review',
    html`<header class="top">
  <h1>toolgate <span class="sub">review</span></h1>
  <p id="conn" class="conn" role="status" data-state="connecting">connecting…</p>
  <nav aria-label="account">
    <span>signed in as <b>${model.reviewer}</b></span>
    <a href="/review/audit">Audit log</a>
    <form method="post" action="/review/logout" class="inline">
      <input type="hidden" name="csrf" value="${model.csrfToken}">
      <button type="submit" class="link">Sign out</button>
    </form>
  </nav>
</header>
<p id="announce" class="sr-only" aria-live="polite"></p>
<main class="layout">
  <section class="queue-pane" aria-labelledby="queue-h">
    <h2 id="queue-h">Pending <span id="count" class="count"></span></h2>
    <p id="empty" class="empty">No pending approvals. New ones appear here as agents ask.</p>
    <ol id="queue" class="queue" role="listbox" aria-labelledby="queue-h"></ol>
    <p id="hidden-note" class="empty" hidden></p>
  </section>
  <section id="dialog" class="dialog" aria-labelledby="dialog-h" hidden>
    <h2 id="dialog-h">Answer</h2>
    <div id="detail" class="detail"></div>
    <div id="options" class="options" role="group" aria-label="Answer">
      <button type="button" class="opt" data-n="1"><kbd>1</kbd> Allow once</button>
      <button type="button" class="opt" data-n="2"><kbd>2</kbd> Allow for this session <span class="opt-sub" id="grant-text"></span></button>
      <button type="button" class="opt" data-n="3"><kbd>3</kbd> Always allow <code class="opt-sub" id="rule-text"></code></button>
      <button type="button" class="opt" data-n="4"><kbd>4</kbd> Deny</button>
      <button type="button" class="opt" data-n="5"><kbd>5</kbd> Deny with feedback…</button>
    </div>
    <div id="rule-edit" class="edit" hidden>
      <label for="rule">Rule to save, <code>allow</code> — edit it, Enter saves, Esc goes back</label>
      <input id="rule" class="mono" type="text" spellcheck="false" autocomplete="off" aria-describedby="rule-preview">
      <p id="rule-preview" class="preview" aria-live="polite"></p>
      <div class="edit-actions"><button type="button" id="rule-save">Save rule and allow</button> <button type="button" class="link" id="rule-cancel">Back</button></div>
    </div>
    <div id="feedback-edit" class="edit" hidden>
      <label for="feedback">Feedback for the agent — Enter sends, Shift+Enter for a new line, Esc goes back</label>
      <textarea id="feedback" rows="3"></textarea>
      <div class="edit-actions"><button type="button" id="feedback-send">Deny with this feedback</button> <button type="button" class="link" id="feedback-cancel">Back</button></div>
    </div>
    <p id="msg" class="msg" role="alert"></p>
    <p class="keys"><kbd>↑</kbd>/<kbd>↓</kbd> move · <kbd>1</kbd>–<kbd>5</kbd> choose · <kbd>Enter</kbd> confirm · <kbd>Esc</kbd> deny · <kbd>j</kbd>/<kbd>k</kbd> or <kbd>Tab</kbd> next/previous request</p>
  </section>
  <section class="history" aria-labelledby="history-h">
    <h2 id="history-h">Recently answered</h2>
    <p id="history-empty" class="empty">Nothing answered yet.</p>
    <ol id="history" class="history-list"></ol>
  </section>
</main>
<noscript><p class="error">The review page needs JavaScript; the same answers are available with curl (see the README).</p></noscript>`,
    head,
  );
}

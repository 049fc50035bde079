// GET /review/audit: the newest audit rows as a table, server-rendered for a signed-in reviewer (no script needed).
import { html } from 'hono/html';
import type { Context } from 'hono';
import { z } from 'zod';
import type { AuditRow, Store } from '../../store/types.ts';
import type { AppEnv } from '../auth.ts';
import { validate } from '../body.ts';

const PAGE_SIZE = 100;
const DECISIONS = [
  'allow',
  'deny',
  'ask',
  'approved',
  'denied',
  'expired',
  'cancelled',
  'result',
  'checkpoint',
  'tool_changed',
  'tool_accepted',
] as const;

const AuditPageQuery = z.object({
  decision: z.union([z.enum(DECISIONS), z.literal('')]).optional(),
  q: z.string().max(200).optional(),
  cursor: z.coerce.number().int().min(1).optional(),
});

/** The command, path or arguments of a row, as a person reads them. */
function subject(args: string): string {
  try {
    const parsed = JSON.parse(args) as Record<string, unknown> | null;
    if (parsed && typeof parsed === 'object') {
      const command = parsed.command;
      if (typeof command === 'string') return command;
      if (Array.isArray(command)) return command.join(' ');
      for (const key of ['file_path', 'path', 'filePath', 'url'])
        if (typeof parsed[key] === 'string') return parsed[key] as string;
    }
  } catch {
    // Stored args are JSON; anything else is shown as it is.
  }
  return args;
}

/** Renders the audit table; `?decision=`, `?q=` filter, `?cursor=` pages to older rows. */
export async function auditPage(c: Context<AppEnv>, store: Store) {
  const query = validate(AuditPageQuery, c.req.query());
  const rows: AuditRow[] = await store.queryAudit({
    decision: query.decision || undefined,
    q: query.q || undefined,
    cursor: query.cursor,
    limit: PAGE_SIZE + 1,
  });
  const page = rows.slice(0, PAGE_SIZE);
  const older = rows.length > PAGE_SIZE ? page[page.length - 1]!.seq : undefined;
  const olderLink =
    older === undefined
      ? ''
      : `/review/audit?${new URLSearchParams({ ...(query.decision ? { decision: query.decision } : {}), ...(query.q ? { q: query.q } : {}), cursor: String(older) })}`;
  return html`<header class="top">
  <h1>toolgate <span class="sub">audit log</span></h1>
  <nav aria-label="pages"><a href="/review">Back to the queue</a> <a href="/v1/audit?limit=${PAGE_SIZE}">JSON</a></nav>
</header>
<main class="audit">
  <form method="get" action="/review/audit" class="filters">
    <label for="decision">Decision</label>
    <select id="decision" name="decision">
      <option value="">any</option>
      ${DECISIONS.map((d) => html`<option value="${d}" ${query.decision === d ? 'selected' : ''}>${d}</option>`)}
    </select>
    <label for="q">Text</label>
    <input id="q" name="q" type="search" value="${query.q ?? ''}" maxlength="200">
    <button type="submit">Filter</button>
  </form>
  <div class="table-wrap">
  <table>
    <caption>Newest first; each row is chained to the one before it (<code>toolgate audit verify</code>).</caption>
    <thead><tr><th scope="col">#</th><th scope="col">time</th><th scope="col">decision</th><th scope="col">source</th><th scope="col">risk</th><th scope="col">tool and arguments</th><th scope="col">agent / session</th><th scope="col">by</th><th scope="col">reason</th></tr></thead>
    <tbody>
    ${page.map(
      (r) => html`<tr>
      <td>${r.seq}</td><td><time datetime="${r.ts}">${r.ts.replace('T', ' ').replace(/\.\d+Z$/, 'Z')}</time></td>
      <td class="status ${r.decision}">${r.decision}</td><td>${r.source}</td>
      <td>${r.risk ? html`<span class="badge risk-${r.risk}">${r.risk}</span>` : ''}</td>
      <td><b>${r.tool}</b> <code>${subject(r.args)}</code></td>
      <td>${r.agent_id ?? '—'} / ${r.session_id ?? '—'}</td><td>${r.resolved_by ?? ''}</td><td>${r.reason}</td>
    </tr>`,
    )}
    </tbody>
  </table>
  </div>
  ${page.length === 0 ? html`<p class="empty">No audit rows match.</p>` : ''}
  ${olderLink ? html`<p><a href="${olderLink}">Older rows</a></p>` : ''}
</main>`;
}

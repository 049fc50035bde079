// Helpers for approval tests: open an ask, answer it, long-poll it, and read the audit rows it left.
import assert from 'node:assert/strict';
import { bash, type Harness } from './harness.ts';

/** A command the danger catalogue asks about (service control under sudo). */
export const ASKING_COMMAND = 'sudo systemctl restart nginx';

/** Decides `command` as bash and asserts it opened a pending approval; returns the decide body. */
export async function openAsk(h: Harness, command = ASKING_COMMAND, extra: Record<string, unknown> = {}): Promise<any> {
  const { status, body } = await h.decide(bash(command, extra));
  assert.equal(status, 200, JSON.stringify(body));
  assert.equal(body.decision, 'ask', `expected ${command} to ask, got ${JSON.stringify(body)}`);
  assert.equal(body.approval?.status, 'pending');
  return body;
}

/** POST /v1/approvals/{id}/resolve as the reviewer; returns status and body. */
export async function resolveAs(
  h: Harness,
  id: string,
  answer: Record<string, unknown>,
  who: 'reviewer' | 'agent' = 'reviewer',
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await h[who](`/v1/approvals/${id}/resolve`, { method: 'POST', body: JSON.stringify(answer) });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

/** GET /v1/approvals/{id} as the agent with a query and headers; returns status, body, headers and the milliseconds it took. */
export async function poll(
  h: Harness,
  id: string,
  query = '',
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any; headers: Headers; ms: number }> {
  const started = performance.now();
  const res = await h.agent(`/v1/approvals/${id}${query}`, { headers });
  const body = await res.json();
  return { status: res.status, body, headers: res.headers, ms: performance.now() - started };
}

/** The audit rows about one approval, oldest first. */
export function auditRowsFor(h: Harness, approvalId: string): any[] {
  const store = h.toolgate.store as unknown as { db: { prepare(sql: string): { all(...args: unknown[]): any[] } } };
  return store.db.prepare('SELECT * FROM audit_log WHERE approval_id = ? ORDER BY seq').all(approvalId);
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// An approval as the sidecar sends it, for the toolgate review tests.
import type { Approval } from '../../src/cli/review/state.ts';

/** An approval as GET /v1/approvals returns it. */
export function approval(overrides: Partial<Approval> = {}): Approval {
  return {
    id: 'a1',
    status: 'pending',
    decision: null,
    choice: null,
    feedback: null,
    modified_args: null,
    tool: 'bash',
    args: { command: 'npm run test -- --watch' },
    cwd: '/home/dev/app',
    reason: 'runs a package script',
    risk: 'medium',
    agent_id: 'claude',
    session_id: 's1',
    created_at: '2026-01-01T10:00:00.000Z',
    expires_at: '2026-01-01T10:15:00.000Z',
    resolved_at: null,
    resolved_by: null,
    suggested_pattern: 'bash(npm run test *)',
    decision_id: 'd1',
    source: 'danger',
    findings: [],
    ...overrides,
  } as Approval;
}

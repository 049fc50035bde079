// Example toolgate plugin: appends one JSON line per decision and per tool result to a file of its own.
// Load it with: TOOLGATE_PLUGIN_AUDIT_FILE=/var/log/toolgate-calls.jsonl toolgate serve --plugin ./examples/plugins/audit-log.js
import { appendFileSync } from 'node:fs';

const file = () => process.env.TOOLGATE_PLUGIN_AUDIT_FILE ?? 'toolgate-plugin-audit.jsonl';

function write(entry) {
  appendFileSync(file(), JSON.stringify({ ts: new Date().toISOString(), ...entry }) + '\n');
}

export default {
  name: 'audit-log',

  /** Records the call and the decision so far; never changes it (no opinion). */
  beforeExecute(call, ctx) {
    write({ event: 'before', decision_id: ctx.decisionId, tool: call.tool, canonical_tool: call.canonicalTool, agent_id: call.agentId ?? null, session_id: call.sessionId ?? null, decision: ctx.decision });
    return undefined;
  },

  /** Records the size of the output (already redacted by toolgate) and passes it on unchanged. */
  afterExecute(call, result, ctx) {
    write({ event: 'after', decision_id: ctx.decisionId, tool: call.tool, bytes: Buffer.byteLength(result.output), is_error: result.is_error });
    return result;
  },
};

// An agent token bound to an agent id: the id its calls act as, whatever they declare (issue 23, row 19).

/** A call declared an agent id (or a session of one) its token is not bound to. */
export class AgentBindingError extends Error {
  constructor(
    readonly field: 'agent_id' | 'session_id',
    message: string,
  ) {
    super(message);
  }
}

/** Who a call acts as, after its token's binding. */
export interface BoundCaller {
  agentId: string | undefined;
  sessionId: string | undefined;
}

/**
 * Applies a token's agent binding to what a call declares. Without a binding the declared ids stand (one shared
 * agent token cannot tell agents apart, so `agent:<id>` scopes and session grants are as good as the callers are
 * honest; docs/security.md). With one:
 *  - the agent id is the bound one: a call that declares another is refused (AgentBindingError → 403), one that
 *    declares none gets the bound one — so a rule scoped `agent:<id>` binds to the token, not to a claim;
 *  - the session id is namespaced by the bound agent (`<agent>/<session>`), so a session grant made for one agent's
 *    session is out of reach of every other token, whatever session id it declares.
 * `strict: false` (hooks, where the runtime names the agent itself) replaces a different id instead of refusing.
 */
export function bindCaller(
  bound: string | undefined,
  declared: BoundCaller,
  claimed: ReadonlySet<string>,
  strict = true,
): BoundCaller {
  if (bound === undefined) {
    // An id some token is bound to belongs to that token: another may neither act as it nor enter its sessions.
    if (declared.agentId !== undefined && claimed.has(declared.agentId)) {
      if (strict)
        throw new AgentBindingError(
          'agent_id',
          `agent "${declared.agentId}" has a token of its own; this token cannot act as it`,
        );
      declared = { ...declared, agentId: `unbound:${declared.agentId}` };
    }
    const slash = declared.sessionId?.indexOf('/') ?? -1;
    const owner = slash < 0 ? undefined : declared.sessionId!.slice(0, slash);
    if (owner !== undefined && claimed.has(owner)) {
      if (strict)
        throw new AgentBindingError(
          'session_id',
          `session "${declared.sessionId}" belongs to agent "${owner}", which has a token of its own`,
        );
      declared = { ...declared, sessionId: `unbound:${declared.sessionId}` };
    }
    return declared;
  }
  if (strict && declared.agentId !== undefined && declared.agentId !== bound) {
    throw new AgentBindingError(
      'agent_id',
      `this token is bound to agent "${bound}"; it cannot act as agent "${declared.agentId}" (omit agent_id, or send "${bound}")`,
    );
  }
  const prefix = `${bound}/`;
  const sessionId =
    declared.sessionId === undefined || declared.sessionId.startsWith(prefix)
      ? declared.sessionId
      : prefix + declared.sessionId;
  return { agentId: bound, sessionId };
}

/** The agent ids tokens are bound to, which no other token may claim. */
export function claimedAgentIds(agentTokens: readonly { agentId?: string }[]): ReadonlySet<string> {
  return new Set(agentTokens.flatMap((t) => (t.agentId === undefined ? [] : [t.agentId])));
}

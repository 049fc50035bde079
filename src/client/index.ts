// toolgate/client: a typed client for the sidecar's HTTP API, built on the types generated from openapi.yaml (openapi-fetch).
import createClient from 'openapi-fetch';
import type { components, paths } from '../http/openapi-types.ts';

type Schemas = components['schemas'];
export type DecideRequest = Schemas['DecideRequest'];
export type DecideResponse = Schemas['DecideResponse'];
export type Approval = Schemas['Approval'];
export type ApprovalStatus = Schemas['ApprovalStatus'];
export type ResolveRequest = Schemas['ResolveRequest'];
export type Rule = Schemas['Rule'];
export type NewRule = Schemas['NewRule'];
export type RuleCreated = Schemas['RuleCreated'];
export type ResultReceipt = Schemas['ResultReceipt'];
export type StoredResult = Schemas['StoredResult'];
export type ToolResult = Schemas['ToolResult'];
export type HookInput = Schemas['HookInput'];
export type HookOutput = Schemas['HookOutput'];
export type Problem = Schemas['Problem'];
export type McpToolsRequest = Schemas['McpToolsRequest'];
export type McpToolsReport = Schemas['McpToolsReport'];
export type McpToolAccepted = Schemas['McpToolAccepted'];

/** Where the sidecar is and which token to send (an agent token, or a reviewer token for resolve and rules). */
export interface ToolgateClientOptions {
  /** Default `http://127.0.0.1:7411`. */
  baseUrl?: string;
  token: string;
  /** A fetch implementation (tests, proxies); default the global fetch. */
  fetch?: typeof fetch;
}

/** A failed call: the HTTP status and the RFC 9457 problem the sidecar sent. */
export class ToolgateError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Partial<Problem> | undefined,
  ) {
    super(problem?.detail ?? `toolgate answered ${status}`);
    this.name = 'ToolgateError';
  }
}

/** The settled answer of decideAndWait: never `ask`. */
export interface SettledDecision {
  decision: 'allow' | 'deny';
  reason: string;
  source: DecideResponse['source'];
  decisionId: string;
  /** The reviewer's text for the model (deny_with_feedback). */
  feedback: string | null;
  /** Arguments to run instead of the original ones (a plugin's rewrite or a reviewer's edit). */
  modifiedArgs?: unknown;
  /** The approval a human answered, when the call asked. */
  approval?: Approval;
}

/** Options of calls that may block. */
export interface WaitOptions {
  signal?: AbortSignal;
  /** Seconds per long-poll (the server caps it at 60); default 30. */
  pollSeconds?: number;
}

/** A typed client; every method throws ToolgateError on a non-2xx answer. */
export class ToolgateClient {
  private readonly http: ReturnType<typeof createClient<paths>>;

  constructor(options: ToolgateClientOptions) {
    this.http = createClient<paths>({
      baseUrl: (options.baseUrl ?? 'http://127.0.0.1:7411').replace(/\/+$/, ''),
      headers: { authorization: `Bearer ${options.token}` },
      ...(options.fetch ? { fetch: options.fetch as (input: Request) => Promise<Response> } : {}),
    });
  }

  /** Asks about one tool call. An `ask` carries an approval to wait on (or use decideAndWait). */
  async decide(
    request: DecideRequest,
    options: { signal?: AbortSignal; explain?: boolean } = {},
  ): Promise<DecideResponse> {
    return unwrap(
      await this.http.POST('/v1/decide', {
        body: request,
        params: { query: options.explain ? { explain: true } : {} },
        signal: options.signal,
      }),
    );
  }

  /**
   * Decides and, on `ask`, long-polls the approval until a human (or the expiry) answers. Aborting the signal
   * cancels the approval (the agent gave up) and rejects with the signal's reason.
   */
  async decideAndWait(request: DecideRequest, options: WaitOptions = {}): Promise<SettledDecision> {
    const first = await this.decide(request, { signal: options.signal });
    if (first.decision !== 'ask' || !first.approval) {
      if (first.decision === 'ask') throw new ToolgateError(500, { detail: 'ask without an approval to wait on' });
      return {
        decision: first.decision,
        reason: first.reason,
        source: first.source,
        decisionId: first.decision_id,
        feedback: first.feedback ?? null,
        ...(first.modified_args !== undefined ? { modifiedArgs: first.modified_args } : {}),
      };
    }
    const id = first.approval.id;
    let approval: Approval | undefined;
    try {
      do approval = await this.getApproval(id, { wait: options.pollSeconds ?? 30, signal: options.signal });
      while (approval.status === 'pending');
    } catch (error) {
      if (options.signal?.aborted) {
        await this.cancel(id).catch(() => undefined);
        throw options.signal.reason ?? error;
      }
      throw error;
    }
    return {
      decision: approval.decision === 'allow' ? 'allow' : 'deny',
      reason: approval.answer_reason ?? approval.reason,
      source: approval.status === 'expired' ? 'timeout' : 'human',
      decisionId: first.decision_id,
      feedback: approval.feedback,
      ...(approval.modified_args !== null && approval.modified_args !== undefined
        ? { modifiedArgs: approval.modified_args }
        : first.modified_args !== undefined
          ? { modifiedArgs: first.modified_args }
          : {}),
      approval,
    };
  }

  /** An approval; with `wait`, held until it leaves `pending` or the wait runs out. */
  async getApproval(id: string, options: { wait?: number; signal?: AbortSignal } = {}): Promise<Approval> {
    return unwrap(
      await this.http.GET('/v1/approvals/{id}', {
        params: { path: { id }, query: options.wait !== undefined ? { wait: options.wait } : {} },
        signal: options.signal,
      }),
    );
  }

  /** The agent gives up on its approval. */
  async cancel(id: string): Promise<Approval> {
    return unwrap(await this.http.POST('/v1/approvals/{id}/cancel', { params: { path: { id } } }));
  }

  /** The approval queue (reviewer token). */
  async listApprovals(status?: ApprovalStatus): Promise<Approval[]> {
    return unwrap(await this.http.GET('/v1/approvals', { params: { query: status ? { status } : {} } })).approvals;
  }

  /** Answers an approval (reviewer token). */
  async resolve(id: string, answer: ResolveRequest): Promise<Approval> {
    return unwrap(await this.http.POST('/v1/approvals/{id}/resolve', { params: { path: { id } }, body: answer }));
  }

  /** Rule management (reviewer token). */
  readonly rules = {
    list: async (): Promise<Rule[]> => unwrap(await this.http.GET('/v1/rules')).rules,
    add: async (rule: NewRule): Promise<RuleCreated> => unwrap(await this.http.POST('/v1/rules', { body: rule })),
    get: async (id: string): Promise<Rule> =>
      unwrap(await this.http.GET('/v1/rules/{id}', { params: { path: { id } } })),
    remove: async (id: string): Promise<void> => {
      const { error, response } = await this.http.DELETE('/v1/rules/{id}', { params: { path: { id } } });
      if (!response.ok) throw new ToolgateError(response.status, error as Partial<Problem> | undefined);
    },
  };

  /** Reports a tool's output after it ran; large outputs come back truncated with a pointer. */
  async submitResult(decisionId: string, result: ToolResult): Promise<ResultReceipt> {
    return unwrap(await this.http.POST('/v1/results', { body: { decision_id: decisionId, result } }));
  }

  /** An offloaded output (or a slice of it). */
  async getResult(id: string, slice: { offset?: number; limit?: number } = {}): Promise<StoredResult> {
    return unwrap(await this.http.GET('/v1/results/{id}', { params: { path: { id }, query: slice } }));
  }

  /** An MCP gateway reports its server's tool definitions; changed ones come back (and, pinned, the refused). */
  async reportMcpTools(report: McpToolsRequest, signal?: AbortSignal): Promise<McpToolsReport> {
    return unwrap(await this.http.POST('/v1/mcp/tools', { body: report, signal }));
  }

  /** Accepts a pinned MCP tool's changed definition (reviewer token). */
  async acceptMcpTool(server: string, tool: string): Promise<McpToolAccepted> {
    return unwrap(await this.http.POST('/v1/mcp/tools/accept', { body: { server, tool } }));
  }

  /** Passes a runtime's hook input through and returns its hook output. */
  async hook(runtime: 'claude-code' | 'codex' | 'gemini', input: HookInput, signal?: AbortSignal): Promise<HookOutput> {
    return unwrap(await this.http.POST('/v1/hooks/{runtime}', { params: { path: { runtime } }, body: input, signal }));
  }
}

/** Builds a client. */
export function createToolgateClient(options: ToolgateClientOptions): ToolgateClient {
  return new ToolgateClient(options);
}

function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.response.ok && result.data !== undefined) return result.data;
  throw new ToolgateError(result.response.status, result.error as Partial<Problem> | undefined);
}

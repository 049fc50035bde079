// The review page's form bodies, as zod schemas annotated against openapi.yaml's ReviewLogin and ReviewLogout.
import { z } from 'zod';
import type { components } from '../openapi-types.ts';

type Schemas = components['schemas'];

/** POST /review/login: the reviewer token (trimmed; a pasted newline is not part of it). */
export const ReviewLoginSchema = z.object({
  token: z
    .string()
    .max(4096)
    .transform((t) => t.trim()),
}) satisfies z.ZodType<Schemas['ReviewLogin'], unknown>;

/** POST /review/logout: the session's CSRF token. */
export const ReviewLogoutSchema = z.object({ csrf: z.string().max(200) }) satisfies z.ZodType<
  Schemas['ReviewLogout'],
  unknown
>;

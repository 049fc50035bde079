// Time bounds as people type them: an ISO date-time, or a duration back from now (`1h`, `30d`).
import { parseDuration } from '../config.ts';

/** The ISO time `text` means (a duration counts back from `now`); undefined when it is neither. */
export function timeBound(text: string, now: number = Date.now()): string | undefined {
  const trimmed = text.trim();
  const ms = parseDuration(trimmed);
  if (ms !== undefined && /[a-z]$/i.test(trimmed)) return new Date(now - ms).toISOString();
  // A bare number would be ambiguous (seconds? a year?): only ISO dates and durations with a unit are accepted.
  if (!/^\d{4}-\d{2}-\d{2}/.test(trimmed)) return undefined;
  const parsed = Date.parse(trimmed);
  return Number.isNaN(parsed) ? undefined : new Date(parsed).toISOString();
}

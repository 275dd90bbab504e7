import { ForbiddenError, UnauthorizedError } from './errors';
import type { HttpEvent } from './http';

export type Group = 'admin' | 'client' | 'talent';

export interface Caller {
  sub: string;
  email?: string;
  groups: string[];
}

/**
 * The caller as API Gateway's JWT authorizer verified it. Cognito puts groups in
 * `cognito:groups`; HTTP APIs pass array claims as "[a b]" strings, so both forms are read.
 */
function callerOf(event: HttpEvent): Caller {
  const claims = event.requestContext?.authorizer?.jwt?.claims;
  if (!claims || typeof claims.sub !== 'string') throw new UnauthorizedError();
  return { sub: claims.sub, email: typeof claims.email === 'string' ? claims.email : undefined, groups: parseGroups(claims['cognito:groups']) };
}

export function parseGroups(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value !== 'string' || !value.trim()) return [];
  const inner = value.trim().replace(/^\[/, '').replace(/\]$/, '');
  return inner.split(/[\s,]+/).filter(Boolean);
}

export function requireGroup(event: HttpEvent, group: Group): Caller {
  const caller = callerOf(event);
  if (!caller.groups.includes(group)) {
    throw new ForbiddenError(`This needs the ${group} role; your account does not have it.`);
  }
  return caller;
}

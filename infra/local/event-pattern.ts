/**
 * EventBridge event-pattern matching: the subset of the pattern language our rules use
 * (values, prefix, suffix, anything-but, exists, numeric, equals-ignore-case, wildcard).
 * An operator it does not know throws, so the twin never silently matches differently.
 */
export function matchesPattern(pattern: Record<string, unknown>, event: Record<string, unknown>): boolean {
  return Object.entries(pattern).every(([key, rule]) => matchField(rule, event?.[key], key in (event ?? {})));
}

function matchField(rule: unknown, value: unknown, present: boolean): boolean {
  if (Array.isArray(rule)) {
    const values = Array.isArray(value) ? value : [value];
    return rule.some((r) => {
      if (r !== null && typeof r === 'object') return matchOperator(r as Record<string, unknown>, values, present);
      return present && values.some((v) => v === r);
    });
  }
  if (rule !== null && typeof rule === 'object') {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      // A nested pattern can still match absence through { exists: false }.
      return Object.values(rule).every((r) => matchField(r, undefined, false));
    }
    return matchesPattern(rule as Record<string, unknown>, value as Record<string, unknown>);
  }
  throw new Error(`Event pattern values must be arrays or objects, got ${JSON.stringify(rule)}`);
}

function matchOperator(op: Record<string, unknown>, values: unknown[], present: boolean): boolean {
  const [name, arg] = Object.entries(op)[0];
  const strings = values.filter((v): v is string => typeof v === 'string');
  switch (name) {
    case 'exists':
      return arg ? present : !present;
    case 'prefix':
      return strings.some((s) => s.startsWith(typeof arg === 'object' ? String((arg as Record<string, unknown>)['equals-ignore-case']) : String(arg)));
    case 'suffix':
      return strings.some((s) => s.endsWith(String(arg)));
    case 'equals-ignore-case':
      return strings.some((s) => s.toLowerCase() === String(arg).toLowerCase());
    case 'wildcard': {
      const re = new RegExp(`^${String(arg).split('*').map(escapeRegExp).join('.*')}$`);
      return strings.some((s) => re.test(s));
    }
    case 'anything-but': {
      if (!present) return false;
      if (arg !== null && typeof arg === 'object' && !Array.isArray(arg)) {
        return !matchOperator(arg as Record<string, unknown>, values, present);
      }
      const excluded = Array.isArray(arg) ? arg : [arg];
      return values.every((v) => !excluded.includes(v));
    }
    case 'numeric': {
      const conds = arg as Array<string | number>;
      return values.some((v) => {
        if (typeof v !== 'number') return false;
        for (let i = 0; i < conds.length; i += 2) {
          const [cmp, n] = [conds[i], Number(conds[i + 1])];
          const ok = cmp === '=' ? v === n : cmp === '<' ? v < n : cmp === '<=' ? v <= n : cmp === '>' ? v > n : cmp === '>=' ? v >= n : undefined;
          if (ok === undefined) throw new Error(`Unknown numeric comparison ${cmp}`);
          if (!ok) return false;
        }
        return true;
      });
    }
    default:
      throw new Error(`The twin does not support the event-pattern operator "${name}"`);
  }
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

import * as fs from 'node:fs';
import * as path from 'node:path';

/** A function's budget: its bundle's minified size and its cold import's median on the reference machine. */
interface Budget {
  kb: number;
  ms: number;
  /** Why a function has a budget of its own (what it carries that the default does not allow for). */
  reason?: string;
}

interface BudgetsFile {
  /** The empty module's cold import median on the machine the ms budgets were set on. */
  referenceEmptyMs: number;
  default: Budget;
  functions: Record<string, Budget>;
}

export interface Budgets {
  referenceEmptyMs: number;
  /** The budget of a function (named as in the table: its entry without `functions/` and `/handler.ts`). */
  of(fn: string): Budget;
  /** The functions with a budget of their own. */
  named(): string[];
}

const FILE = path.join(__dirname, 'budgets.json');

const isBudget = (b: unknown): b is Budget =>
  typeof b === 'object' && b !== null && [(b as Budget).kb, (b as Budget).ms].every((n) => typeof n === 'number' && n > 0);

/** test/bench/cold/budgets.json, checked: a function's own budget must say why it has one. */
export function readBudgets(): Budgets {
  const file = JSON.parse(fs.readFileSync(FILE, 'utf8')) as BudgetsFile;
  if (!(file.referenceEmptyMs > 0) || !isBudget(file.default)) throw new Error(`${FILE}: referenceEmptyMs and default { kb, ms } are required`);
  for (const [fn, b] of Object.entries(file.functions)) {
    if (!isBudget(b) || !b.reason) throw new Error(`${FILE}: ${fn} needs kb, ms and the reason it cannot meet the default`);
  }
  return {
    referenceEmptyMs: file.referenceEmptyMs,
    of: (fn) => file.functions[fn] ?? file.default,
    named: () => Object.keys(file.functions),
  };
}

/**
 * A cold-import budget in this run's ms: the budget (set on the reference machine) times the empty
 * module's median in this run over its median there. Machines are shared and noisy; the empty
 * module, imported between the functions in the same processes' environment, carries the same load.
 */
export const coldImportBudget = (ms: number, scale: number) => ms * scale;

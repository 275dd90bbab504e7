import * as fs from 'node:fs';
import * as path from 'node:path';

// The "Where is it" table of docs/architecture.md leads from each feature of docs/product.md to
// its route or rule, construct, handler, service and store. A path in it that no longer exists,
// a handler missing from it, or a link to a product.md anchor that is gone fails here.
const ROOT = path.resolve(__dirname, '../../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

function whereIsItRows(): string[][] {
  const doc = read('docs/architecture.md');
  const start = doc.indexOf('\n## Where is it');
  if (start < 0) throw new Error('docs/architecture.md has no "Where is it" section');
  const section = doc.slice(start + 1).split(/\n## /)[0];
  return section
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| Wing') && !line.startsWith('|---'))
    .map((line) => line.split('|').slice(1, -1).map((cell) => cell.trim()));
}

const pathsIn = (cell: string) => [...cell.matchAll(/`((?:functions|infra|events|web|admin)\/[^`]+)`/g)].map((m) => m[1]);

/** Every handler of a route, step or trigger under functions/<wing>/. */
function handlerFiles(): string[] {
  const found: string[] = [];
  for (const wing of fs.readdirSync(path.join(ROOT, 'functions'))) {
    for (const kind of ['routes', 'steps', 'triggers']) {
      const dir = path.join(ROOT, 'functions', wing, kind);
      if (!fs.existsSync(dir)) continue;
      for (const name of fs.readdirSync(dir)) {
        const handler = `functions/${wing}/${kind}/${name}/handler.ts`;
        if (fs.existsSync(path.join(ROOT, handler))) found.push(handler);
      }
    }
  }
  return found.sort();
}

describe('docs/architecture.md "Where is it"', () => {
  const rows = whereIsItRows();

  it('has a row for every route, step and trigger handler', () => {
    const listed = new Set(rows.map((cells) => pathsIn(cells[4])[0]));
    const missing = handlerFiles().filter((handler) => !listed.has(handler));
    expect(missing).toEqual([]);
  });

  it('names only paths that exist', () => {
    const named = rows.flatMap((cells) => cells.flatMap(pathsIn));
    expect(named.length).toBeGreaterThan(rows.length * 3);
    expect(named.filter((p) => !fs.existsSync(path.join(ROOT, p)))).toEqual([]);
  });

  it('links each row to a section of docs/product.md that exists', () => {
    const anchors = new Set([...read('docs/product.md').matchAll(/<a id="([^"]+)">/g)].map((m) => m[1]));
    const broken = rows
      .map((cells) => ({ handler: pathsIn(cells[4])[0], link: /\(product\.md#([^)]+)\)/.exec(cells[1])?.[1] }))
      .filter(({ link }) => !link || !anchors.has(link));
    expect(broken).toEqual([]);
  });

  it('names the handler, and the service beside it when there is one', () => {
    const wrong = rows.filter((cells) => {
      const handler = pathsIn(cells[4])[0];
      const service = path.join(path.dirname(handler ?? ''), 'service.ts');
      const hasService = fs.existsSync(path.join(ROOT, service));
      return !handler || (hasService ? pathsIn(cells[5])[0] !== service : pathsIn(cells[5]).length > 0);
    });
    expect(wrong.map((cells) => cells[4])).toEqual([]);
  });

  it('finds a service beside every route handler: handler -> service -> store', () => {
    const routes = handlerFiles().filter((handler) => handler.includes('/routes/'));
    expect(routes.length).toBeGreaterThan(100);
    expect(routes.filter((handler) => !fs.existsSync(path.join(ROOT, path.dirname(handler), 'service.ts')))).toEqual([]);
  });
});

// The project's own lint rules (eslint.config.js), and the citation check they share with the
// unit test over docs/ (test/unit/lint/one-way.test.ts).
const fs = require('node:fs');
const path = require('node:path');

const ROOT = __dirname;
const SKIPPED = new Set(['node_modules', '.git', 'dist', 'cdk.out', 'coverage', '.twin', '.scratch', 'screenshots', 'test-results']);

/** The names of the Markdown files the repository holds (README.md, docs/*.md, ...). */
function markdownNames() {
  const names = new Set();
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (SKIPPED.has(entry.name) || entry.name.startsWith('.twin-build-')) continue;
      if (entry.isDirectory()) walk(path.join(dir, entry.name));
      else if (entry.name.endsWith('.md')) names.add(entry.name);
    }
  };
  walk(ROOT);
  return names;
}
let known;

// A Markdown file named in text, with or without the folders before its name.
const MARKDOWN_CITED = /(?:^|[\s(`'"[])((?:\.{1,2}\/|[\w-]+\/)*[\w.-]+\.md)\b/g;
// A relative path that climbs out of its folder (one or more `..` first).
const CLIMBING = /(?:^|[\s(`'"[])((?:\.\.\/)+[\w.-]+(?:\/[\w.-]+)*)/g;

/**
 * The citations in `text` (a comment, or a page of docs/) of files outside the repository:
 * a Markdown file the repository does not hold, or a relative path leading out of its root.
 * `file` is the citing file's absolute path, against which relative paths are read.
 */
function outsideCitations(text, file) {
  known ??= markdownNames();
  const found = [];
  const dir = path.dirname(file);
  for (const [, cited] of text.matchAll(MARKDOWN_CITED)) {
    const inside = cited.includes('/')
      ? [path.resolve(dir, cited), path.resolve(ROOT, cited)].some((p) => p.startsWith(ROOT + path.sep) && fs.existsSync(p))
      : known.has(cited);
    if (!inside) found.push(cited);
  }
  for (const [, cited] of text.matchAll(CLIMBING)) {
    if (!path.resolve(dir, cited).startsWith(ROOT + path.sep) && !found.includes(cited)) found.push(cited);
  }
  return found;
}

/** Comments cite only files in the repository: what code needs from elsewhere is written into docs/. */
const noOutsideCitation = {
  meta: {
    type: 'problem',
    docs: { description: 'comments cite only files in the repository' },
    schema: [],
    messages: { outside: 'This comment cites {{cited}}, which is not in the repository: write what it needs into docs/ and cite that.' },
  },
  create(context) {
    return {
      Program() {
        for (const comment of context.sourceCode.getAllComments()) {
          for (const cited of outsideCitations(comment.value, context.filename)) {
            context.report({ loc: comment.loc, messageId: 'outside', data: { cited } });
          }
        }
      },
    };
  },
};

module.exports = { outsideCitations, plugin: { rules: { 'no-outside-citation': noOutsideCitation } } };

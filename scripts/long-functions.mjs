// Lists the functions longer than a limit (default 70 lines) in the TypeScript files under the
// given folders: `node scripts/long-functions.mjs apps/gateway/src apps/mcp/src [--max 70]`. A
// function's length counts its whole body, nested functions included, as a reader sees it. Test files are
// skipped. Exit code 1 when any is found, so it can guard a folder in CI.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

const args = process.argv.slice(2);
const maxIndex = args.indexOf("--max");
const max = maxIndex === -1 ? 70 : Number(args[maxIndex + 1]);
// Only the word after --max is its value: without --max every argument is a folder.
const roots = args.filter((arg, i) => arg !== "--max" && (maxIndex === -1 || i !== maxIndex + 1));

function* sourceFiles(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$|\.spec\.tsx?$|\.d\.ts$/.test(name)) yield path;
  }
}

function nameOf(node, source) {
  if (node.name) return node.name.getText(source);
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText(source);
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText(source);
  if (ts.isConstructorDeclaration(node)) return "constructor";
  return "(anonymous)";
}

const found = [];
for (const root of roots.length > 0 ? roots : ["apps/gateway/src"]) {
  for (const file of sourceFiles(root)) {
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
    const visit = (node) => {
      if (ts.isFunctionLike(node) && "body" in node && node.body) {
        const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        const lines = end - start + 1;
        if (lines > max) found.push({ file, line: start + 1, name: nameOf(node, source), lines });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
}
found.sort((a, b) => b.lines - a.lines);
for (const f of found) console.log(`${String(f.lines).padStart(4)} lines  ${f.file}:${f.line}  ${f.name}`);
if (found.length === 0) console.log(`no function over ${max} lines`);
process.exitCode = found.length > 0 ? 1 : 0;

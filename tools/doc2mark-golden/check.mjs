// check.mjs holds chunk_content.mjs to doc2mark's own outputs (the 24 cases of
// ../shared/fixtures/doc2mark/chunk_content_cases.json, character mode) and to the repository's
// hand-written cases (adapters/doc2mark/testdata/cases.json). It exits 1 on any difference.
//
//   cd tools/doc2mark-golden && npm ci && node check.mjs [SHARED_CASES]

import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, resolve } from "node:path";
import { chunkContent, compare } from "./chunk_content.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const shared = process.argv[2] ?? resolve(root, "../shared/fixtures/doc2mark/chunk_content_cases.json");
const own = resolve(root, "adapters/doc2mark/testdata/cases.json");

let failed = 0, passed = 0;
function run(label, cases) {
  for (const c of cases) {
    const got = chunkContent(c.input, c.config, null);
    const diffs = compare(c.output_chunks, got);
    if (diffs.length) {
      failed++;
      console.log(`FAIL ${label}: ${c.name}\n  ${diffs.join("\n  ")}`);
    } else {
      passed++;
    }
  }
}
if (existsSync(shared)) {
  run("doc2mark", JSON.parse(readFileSync(shared, "utf8")));
} else {
  console.log(`skip doc2mark's own cases: ${shared} not found`);
}
run("own", JSON.parse(readFileSync(own, "utf8")).cases);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);

// resave.mjs loads a tokenizer.json with HuggingFace tokenizers (npm @anush008/tokenizers, the
// Rust core that tools/hf-golden pins) and saves it again, so that the file is in HF's own
// serialization and is known to load in HF:
//
//   node resave.mjs IN.json OUT.json
//
// It needs `make hf-files` (npm ci in tools/hf-golden) first.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(here, "..", "hf-golden", "package.json"));
const { Tokenizer } = require("@anush008/tokenizers");

const [input, output] = process.argv.slice(2);
if (!input || !output) {
  console.error("usage: node resave.mjs IN.json OUT.json");
  process.exit(2);
}
Tokenizer.fromFile(input).save(output, false);

// chunk_content.mjs: doc2mark's chunk_content (doc2mark/core/chunker.py) in JavaScript, written
// from the rules of ../shared/fixtures/doc2mark/ALGORITHM.md independently of the Go package
// adapters/doc2mark, so that each checks the other. Strings are handled in code points, as
// Python's are; in token mode lengths and overlap tails come from OpenAI's tiktoken (npm).

const SEP = "\n\n";

export const DEFAULTS = Object.freeze({
  max_chunk_size: 1500,
  overlap: 200,
  split_on_heading_level: 2,
  keep_tables_whole: true,
  include_page_markers: false,
  size_unit: "chars",
  encoding_name: "cl100k_base",
});

// Python's str.isspace: Unicode White_Space plus U+001C..U+001F.
const PY_SPACE = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680,
  0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a,
  0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]);

const cps = (s) => Array.from(s);
const pyLen = (s) => cps(s).length;

function pyStrip(s) {
  const a = cps(s);
  let i = 0, j = a.length;
  while (i < j && PY_SPACE.has(a[i].codePointAt(0))) i++;
  while (j > i && PY_SPACE.has(a[j - 1].codePointAt(0))) j--;
  return a.slice(i, j).join("");
}

// Python's \w in a str pattern is [\p{L}\p{N}_]; Python's "." is [^\n].
const DEFINITION = /^\[\^([\p{L}\p{N}_]+)\]:\s*([^\n]+)/u;
const REFERENCE = /\[\^([\p{L}\p{N}_]+)\](?!:)/gu;

// measure returns the length function and the tail function of the config.
export function measure(config, getEncoding) {
  if (config.size_unit !== "tokens") {
    return {
      len: pyLen,
      tail: (text, n) => cps(text).slice(-n).join(""),
    };
  }
  const enc = getEncoding(config.encoding_name);
  const decoder = new TextDecoder("utf-8"); // replaces broken sequences, as errors="replace"
  return {
    len: (text) => enc.encode_ordinary(text).length,
    tail: (text, n) => decoder.decode(enc.decode(enc.encode_ordinary(text).slice(-n))),
  };
}

function render(item) {
  const t = item.type ?? "";
  const c = item.content ?? "";
  switch (t) {
    case "text:title": return `# ${c}`;
    case "text:section": return `## ${c}`;
    case "text:list": return c;
    case "text:caption": return `*${c}*`;
    case "text:normal": case "text:footnote": return c;
    case "table": return c;
    case "image": return `![Image](data:image/png;base64,${c})`;
    case "text:image_description":
      return pyStrip(c.split("<image_ocr_result>").join("").split("</image_ocr_result>").join(""));
    case "text:header": case "text:footer": return "";
    default: return c;
  }
}

const headingLevel = (t) => (t === "text:title" ? 1 : t === "text:section" ? 2 : 0);

function groupSections(items, config) {
  const sections = [];
  let hierarchy = [], current = [], title = null;
  for (const item of items) {
    const level = headingLevel(item.type ?? "");
    if (level > 0 && level <= config.split_on_heading_level) {
      if (current.length) sections.push({ title, hierarchy: [...hierarchy], items: current });
      const text = item.content ?? "";
      hierarchy = level === 1 ? [text] : [...hierarchy.slice(0, 1), text];
      title = text;
      current = [item];
    } else {
      current.push(item);
    }
  }
  if (current.length) sections.push({ title, hierarchy: [...hierarchy], items: current });
  return sections;
}

function makeChunk(content, section, pages, types) {
  return {
    content,
    section_title: section.title,
    section_hierarchy: [...section.hierarchy],
    page_start: pages.length ? Math.min(...pages) : null,
    page_end: pages.length ? Math.max(...pages) : null,
    content_types: [...types].sort(),
    chunk_index: 0,
  };
}

function sectionToChunks(section, config, m) {
  const rendered = section.items.map(render).filter((t) => t);
  if (!rendered.length) return [];
  const full = rendered.join(SEP);
  if (m.len(full) <= config.max_chunk_size) {
    const pages = section.items.filter((i) => i.page !== undefined && i.page !== null).map((i) => i.page);
    return [makeChunk(full, section, pages, new Set(section.items.map((i) => i.type ?? "")))];
  }
  const chunks = [];
  let parts = [], len = 0, pages = [], types = new Set();
  for (const item of section.items) {
    const text = render(item);
    if (!text) continue;
    const itemLen = m.len(text) + (parts.length ? m.len(SEP) : 0);
    const isTable = item.type === "table";
    if (parts.length && len + itemLen > config.max_chunk_size && !(isTable && config.keep_tables_whole)) {
      chunks.push(makeChunk(parts.join(SEP), section, pages, types));
      parts = []; len = 0; pages = []; types = new Set();
    }
    parts.push(text);
    len += itemLen;
    types.add(item.type ?? "");
    if (item.page !== undefined && item.page !== null) pages.push(item.page);
  }
  if (parts.length) chunks.push(makeChunk(parts.join(SEP), section, pages, types));
  return chunks;
}

function applyOverlap(chunks, config, m) {
  for (let i = 1; i < chunks.length; i++) {
    const prev = chunks[i - 1].content;
    let tail;
    if (m.len(prev) <= config.overlap) {
      tail = prev;
    } else {
      tail = m.tail(prev, config.overlap);
      const space = tail.indexOf(" ");
      if (space !== -1) tail = tail.slice(space + 1);
    }
    chunks[i].content = tail + SEP + chunks[i].content;
  }
}

function attachFootnotes(chunks, notes) {
  const used = new Set();
  for (const chunk of chunks) {
    const add = [];
    for (const m of chunk.content.matchAll(REFERENCE)) {
      const id = m[1];
      if (notes.has(id) && !used.has(id)) {
        add.push(notes.get(id));
        used.add(id);
      }
    }
    if (add.length) chunk.content += SEP + add.join("\n");
  }
  const rest = [...notes].filter(([k]) => !used.has(k)).map(([, v]) => v);
  if (rest.length && chunks.length) chunks[chunks.length - 1].content += SEP + rest.join("\n");
}

// chunkContent returns doc2mark's chunks for items (a json_content list) and config (the
// ChunkingConfig fields that differ from the defaults, or null). getEncoding is tiktoken's
// get_encoding; it is only called in token mode.
export function chunkContent(items, config, getEncoding) {
  if (!items || !items.length) return [];
  const cfg = { ...DEFAULTS, ...(config ?? {}) };
  const m = measure(cfg, getEncoding);
  const body = [];
  const notes = new Map(); // insertion-ordered like a Python dict
  for (const item of items) {
    if (item.type === "text:footnote") {
      const content = item.content ?? "";
      const d = DEFINITION.exec(content);
      notes.set(d ? d[1] : cps(content).slice(0, 20).join(""), content);
    } else {
      body.push(item);
    }
  }
  const chunks = groupSections(body, cfg).flatMap((s) => sectionToChunks(s, cfg, m));
  if (cfg.overlap > 0 && chunks.length > 1) applyOverlap(chunks, cfg, m);
  if (notes.size) attachFootnotes(chunks, notes);
  chunks.forEach((c, i) => { c.chunk_index = i; });
  return chunks;
}

// compare returns the differences between want and got chunk lists (content_types as sets).
export function compare(want, got) {
  const diffs = [];
  if (want.length !== got.length) diffs.push(`want ${want.length} chunks, got ${got.length}`);
  for (let i = 0; i < Math.min(want.length, got.length); i++) {
    for (const k of ["content", "section_title", "section_hierarchy", "page_start", "page_end", "chunk_index"]) {
      if (JSON.stringify(want[i][k]) !== JSON.stringify(got[i][k])) {
        diffs.push(`chunk ${i} ${k}: want ${JSON.stringify(want[i][k])}, got ${JSON.stringify(got[i][k])}`);
      }
    }
    const wt = JSON.stringify([...want[i].content_types].sort());
    const gt = JSON.stringify([...got[i].content_types].sort());
    if (wt !== gt) diffs.push(`chunk ${i} content_types: want ${wt}, got ${gt}`);
  }
  return diffs;
}

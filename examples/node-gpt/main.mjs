#!/usr/bin/env node
// node-gpt: a chunkkit tokenizer plugin in Node.js. It serves OpenAI's BPE encodings through
// the gpt-tokenizer package and speaks go-plugin's gRPC protocol as docs/protocol.md
// describes it: cookie, version negotiation, AutoMTLS, health, controller, stdio, Unix socket,
// parent-death exit. Logs go to stderr as hclog JSON; stdout carries only the handshake line.
import 'reflect-metadata'; // @peculiar/x509 needs it
import { randomBytes, webcrypto } from 'node:crypto';
import { chmodSync, chownSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isUtf8 } from 'node:buffer';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { HealthImplementation } from 'grpc-health-check';
import * as x509 from '@peculiar/x509';

const NAME = 'node-gpt';
const VERSION = '1.0.0';
const PROTOCOL_VERSION = '1.2'; // the header of tokenizer.proto: RetainBoundaries and CountRanges, packed
const APP_PROTOCOL = 1; // the major, negotiated in the handshake
const COOKIE_KEY = 'CHUNKKIT_PLUGIN';
const COOKIE_VALUE = '225fe4dcd312a61d9955f80c190fb6cd';
const MAX_REQUEST_BYTES = 64 << 20; // docs/protocol.md section 4
const MODELS = ['cl100k_base', 'o200k_base', 'p50k_base', 'r50k_base']; // the first is the default
const here = dirname(fileURLToPath(import.meta.url));

// --- logging: hclog's JSON lines on stderr, which the host relays with their level ---
const LEVELS = { trace: 0, debug: 1, info: 2, warn: 3, error: 4, off: 5 };
const minLevel = LEVELS[process.env.CHUNKKIT_PLUGIN_LOG_LEVEL ?? 'info'] ?? LEVELS.info;
function log(level, message, fields = {}) {
  if (LEVELS[level] < minLevel) return;
  // hclog's timestamp has exactly six fractional digits; go-plugin demotes a line without them.
  const timestamp = new Date().toISOString().replace(/Z$/, '000Z');
  const line = { '@level': level, '@message': message, '@timestamp': timestamp, ...fields };
  process.stderr.write(JSON.stringify(line) + '\n');
}

// --- the tokenizer: gpt-tokenizer's encodings, loaded on first use ---
const loaded = new Map(); // model -> Promise<{encoding, lengths}>
function model(name) {
  const m = name === '' ? MODELS[0] : name;
  if (!MODELS.includes(m)) {
    throw Object.assign(new Error(`model "${name}" is not served; ${NAME} serves ${MODELS.join(', ')}`), { code: grpc.status.NOT_FOUND });
  }
  if (!loaded.has(m)) {
    loaded.set(m, (async () => {
      const started = performance.now();
      const { default: encoding } = await import(`gpt-tokenizer/encoding/${m}`);
      // The byte length of every token, from the rank table: a token is a string (valid
      // UTF-8) or an array of bytes. Boundaries are the running sum of these lengths.
      const { default: ranks } = await import(`gpt-tokenizer/bpeRanks/${m}`);
      const lengths = new Int32Array(encoding.vocabularySize);
      ranks.forEach((t, id) => { lengths[id] = typeof t === 'string' ? Buffer.byteLength(t) : t.length; });
      log('info', 'loaded model', { model: m, ms: Math.round(performance.now() - started) });
      return { encoding, lengths };
    })());
  }
  return loaded.get(m);
}
const ordinary = { disallowedSpecial: new Set() }; // special-token text is text

// The UTF-8 rules of docs/protocol.md for bytes that are not valid UTF-8: each maximal
// invalid subsequence is one U+FFFD (as TextDecoder decodes), and every boundary is moved up
// to a byte that is not a continuation byte.
function maximalSubpart(b, i) {
  let need = 0, lo = 0x80, hi = 0xbf;
  const c = b[i];
  if (c >= 0xc2 && c <= 0xdf) need = 1;
  else if (c === 0xe0) { need = 2; lo = 0xa0; }
  else if (c === 0xed) { need = 2; hi = 0x9f; }
  else if (c >= 0xe1 && c <= 0xef) need = 2;
  else if (c === 0xf0) { need = 3; lo = 0x90; }
  else if (c >= 0xf1 && c <= 0xf3) need = 3;
  else if (c === 0xf4) { need = 3; hi = 0x8f; }
  else return { valid: false, size: 1 };
  let n = 1;
  for (; n <= need && i + n < b.length; n++) {
    const d = b[i + n];
    if ((n === 1 && (d < lo || d > hi)) || (n > 1 && (d < 0x80 || d > 0xbf))) break;
  }
  return { valid: n === need + 1, size: n };
}

// decode returns the text the tokenizer sees and a function mapping a byte offset in that
// text's UTF-8 back to an offset in b.
function decode(b) {
  if (isUtf8(b)) return { text: b.toString('utf8'), toOrig: (e) => e };
  const segs = []; // {from, to} in the repaired bytes, {origFrom, origTo} in b
  const parts = [];
  let out = 0;
  for (let i = 0; i < b.length;) {
    const { valid, size } = b[i] < 0x80 ? { valid: true, size: 1 } : maximalSubpart(b, i);
    const n = valid ? size : 3; // U+FFFD is 3 bytes
    const last = segs[segs.length - 1];
    if (valid && last && !last.replaced) { last.to += n; last.origTo += n; }
    else segs.push({ from: out, to: out + n, origFrom: i, origTo: i + size, replaced: !valid });
    parts.push(valid ? b.subarray(i, i + size) : Buffer.from([0xef, 0xbf, 0xbd]));
    out += n;
    i += size;
  }
  let s = 0;
  const toOrig = (e) => { // e > 0, called with non-decreasing e
    while (s + 1 < segs.length && segs[s + 1].from < e) s++;
    const g = segs[s];
    return g.replaced ? g.origTo : g.origFrom + e - g.from;
  };
  return { text: Buffer.concat(parts).toString('utf8'), toOrig };
}

function snapUp(b, e) {
  while (e < b.length && (b[e] & 0xc0) === 0x80) e++;
  return e;
}

async function count(name, texts) {
  const { encoding } = await model(name);
  return texts.map((b) => (b.length === 0 ? 0 : encoding.countTokens(decode(b).text, ordinary)));
}

async function boundaries(name, texts) {
  const { encoding, lengths } = await model(name);
  return texts.map((b) => {
    if (b.length === 0) return { ends: [] };
    const { text, toOrig } = decode(b);
    const ids = encoding.encode(text, ordinary);
    const ends = new Array(ids.length);
    let end = 0;
    for (let i = 0; i < ids.length; i++) {
      end += lengths[ids[i]];
      ends[i] = snapUp(b, toOrig(end));
    }
    return { ends };
  });
}

// --- protocol 1.1 and 1.2: texts kept for CountRanges (docs/protocol.md) ---
const KEEP = 64; // requests always kept, the protocol's minimum
const kept = new Map(); // handle -> {model, texts: Buffer[]}, least recently used first
let nextHandle = 0;

function keep(m, texts) {
  const handle = ++nextHandle;
  kept.set(handle, { model: m, texts });
  while (kept.size > KEEP) kept.delete(kept.keys().next().value);
  return handle;
}

function keptTexts(handle, m) {
  const k = kept.get(handle);
  if (!k) throw Object.assign(new Error(`retained texts ${handle} are no longer kept (${NAME} keeps the ${KEEP} most recent requests); send the texts with Count`), { code: grpc.status.FAILED_PRECONDITION });
  if (k.model !== m) throw invalid(`retained texts ${handle} were measured for model "${k.model}", not "${m}"`);
  kept.delete(handle); // most recently used now
  kept.set(handle, k);
  return k.texts;
}

function invalid(message) {
  return Object.assign(new Error(message), { code: grpc.status.INVALID_ARGUMENT });
}

// An unsigned varint, as protobuf encodes uint64 (every number here fits 2^53).
function pushVarint(out, v) {
  while (v >= 0x80) { out.push((v % 0x80) | 0x80); v = Math.floor(v / 0x80); }
  out.push(v);
}

// packedEnds is RetainedBoundaries.packed_ends: per text its token count, then each token's end
// minus the one before.
function packedEnds(all) {
  const out = [];
  for (const { ends } of all) {
    pushVarint(out, ends.length);
    let prev = 0;
    for (const e of ends) { pushVarint(out, e - prev); prev = e; }
  }
  return Buffer.from(out);
}

// rangeOf returns the bytes [start, end) of text `text` of the texts kept under handle, for
// piece j of composite i.
function rangeOf(handle, text, start, end, m, i, j) {
  const texts = keptTexts(handle, m);
  if (text >= texts.length) throw invalid(`text ${i} piece ${j}: text ${text} of retained texts ${handle}, which hold ${texts.length}`);
  const b = texts[text];
  if (start > end || end > b.length) throw invalid(`text ${i} piece ${j}: range [${start}, ${end}) outside a text of ${b.length} bytes`);
  return b.subarray(start, end);
}

// composites builds the texts of a CountRangesRequest: packed_texts (1.2) when it is set, else
// texts, Composite messages of literal and range pieces.
function composites(req, m) {
  const packed = req.packed_texts;
  if (!packed || packed.length === 0) {
    // proto-loader sets the oneof's member that came; the other is null (defaults: true).
    return req.texts.map((c, i) => Buffer.concat(c.pieces.map((p, j) => {
      if (p.range) return rangeOf(p.range.handle, p.range.text, p.range.start, p.range.end, m, i, j);
      return p.literal ?? Buffer.alloc(0);
    })));
  }
  let at = 0;
  const varint = (what) => {
    let v = 0, scale = 1;
    for (;;) {
      if (at >= packed.length) throw invalid(`packed texts: ${what}: unexpected end`);
      const b = packed[at++];
      v += (b & 0x7f) * scale;
      if (b < 0x80) return v;
      scale *= 0x80;
      if (scale > 2 ** 56) throw invalid(`packed texts: ${what}: not a varint`);
    }
  };
  const out = [];
  for (let i = 0; at < packed.length; i++) {
    const n = varint(`composite ${i}: number of pieces`);
    const parts = [];
    for (let j = 0; j < n; j++) {
      const x = varint(`composite ${i} piece ${j}: kind`);
      if (x % 2 === 0) {
        const size = x / 2;
        if (size > packed.length - at) throw invalid(`packed texts: composite ${i} piece ${j}: a literal of ${size} bytes, ${packed.length - at} left`);
        parts.push(packed.subarray(at, at + size));
        at += size;
        continue;
      }
      const text = (x - 1) / 2;
      const h = varint(`composite ${i} piece ${j}: handle`);
      const start = varint(`composite ${i} piece ${j}: start`);
      const end = start + varint(`composite ${i} piece ${j}: length`);
      if (h >= req.handles.length) throw invalid(`text ${i} piece ${j}: handle ${h} of ${req.handles.length}`);
      parts.push(rangeOf(req.handles[h], text, start, end, m, i, j));
    }
    out.push(Buffer.concat(parts));
  }
  return out;
}

// --- gRPC services ---
function unary(fn) {
  return async (call, callback) => {
    if (call.cancelled) return callback({ code: grpc.status.CANCELLED, details: 'cancelled' });
    try {
      callback(null, await fn(call.request));
    } catch (err) {
      if (err.code === undefined) log('error', 'call failed', { error: String(err.stack ?? err) });
      callback({ code: err.code ?? grpc.status.INTERNAL, details: `${NAME}: ${err.message}` });
    }
  };
}

function loadProto(file) {
  return grpc.loadPackageDefinition(protoLoader.loadSync(file, {
    includeDirs: [join(here, 'proto')], keepCase: true, longs: Number, enums: String, defaults: true,
  }));
}

// stdio holds what is written to stdout after the handshake, for plugin.GRPCStdio, so that a
// stray console.log reaches the host's SyncStdout instead of the handshake pipe.
const stdio = { stream: null, queue: [] };
function captureStdout() {
  process.stdout.write = (chunk, encoding, cb) => {
    const data = Buffer.from(chunk, typeof encoding === 'string' ? encoding : undefined);
    if (stdio.stream) stdio.stream.write({ channel: 'STDOUT', data });
    else if (stdio.queue.length < 256) stdio.queue.push(data);
    if (typeof encoding === 'function') encoding(); else if (cb) cb();
    return true;
  };
}

async function serverCredentials() {
  const clientCert = process.env.PLUGIN_CLIENT_CERT;
  if (!clientCert) return { creds: grpc.ServerCredentials.createInsecure(), certField: '' };
  x509.cryptoProvider.set(webcrypto);
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify']);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: Buffer.from(webcrypto.getRandomValues(new Uint8Array(16))).toString('hex').replace(/^[89a-f]/, '1'),
    name: 'CN=localhost, O=chunkkit',
    notBefore: new Date(Date.now() - 30_000),
    notAfter: new Date(Date.now() + 30 * 86_400_000),
    keys,
    signingAlgorithm: alg,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.keyAgreement, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth]),
      new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: 'localhost' }]),
    ],
  });
  const key = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)).toString('base64');
  const keyPem = `-----BEGIN PRIVATE KEY-----\n${key.match(/.{1,64}/g).join('\n')}\n-----END PRIVATE KEY-----\n`;
  // Only a client presenting the host's certificate may connect.
  const creds = grpc.ServerCredentials.createSsl(Buffer.from(clientCert),
    [{ private_key: Buffer.from(keyPem), cert_chain: Buffer.from(cert.toString('pem')) }], true);
  // go-plugin reads the DER certificate in standard base64 without padding.
  return { creds, certField: Buffer.from(cert.rawData).toString('base64').replace(/=+$/, '') };
}

async function main() {
  if (process.env[COOKIE_KEY] !== COOKIE_VALUE) {
    process.stderr.write('This program is a chunkkit plugin; run it through chunkkit (see docs/plugins-node.md).\n' +
      'chunkkit starts it from a manifest (*.plugins.json) with the handshake in its environment.\n');
    process.exit(1);
  }
  const offered = (process.env.PLUGIN_PROTOCOL_VERSIONS ?? String(APP_PROTOCOL)).split(',').map(Number);
  if (!offered.includes(APP_PROTOCOL)) {
    process.stderr.write(`${NAME} speaks chunkkit protocol ${APP_PROTOCOL}; the host offers ${offered.join(', ')}\n`);
    process.exit(1);
  }

  const server = new grpc.Server({
    'grpc.max_receive_message_length': MAX_REQUEST_BYTES,
    'grpc.max_send_message_length': -1,
  });
  const tokenizer = loadProto('tokenizerv1/tokenizer.proto').chunkkit.tokenizer.v1;
  server.addService(tokenizer.Tokenizer.service, {
    Info: unary(async () => ({ name: NAME, version: VERSION, models: MODELS, protocol_version: PROTOCOL_VERSION, kinds: ['tokenizer'] })),
    Count: unary(async ({ model: m, texts }) => ({ counts: await count(m, texts) })),
    Boundaries: unary(async ({ model: m, texts }) => ({ ends: await boundaries(m, texts) })),
    RetainBoundaries: unary(async ({ model: m, texts, packed_ends: packed }) => {
      const all = await boundaries(m, texts);
      const handle = keep(m, texts);
      return packed ? { packed_ends: packedEnds(all), handle, packed_texts: true } : { ends: all, handle, packed_texts: true };
    }),
    CountRanges: unary(async (req) => ({ counts: await count(req.model, composites(req, req.model)) })),
  });
  new HealthImplementation({ '': 'SERVING', plugin: 'SERVING' }).addToServer(server);

  // A new socket in the directory the host chose, named as go-plugin names its own.
  const socket = join(process.env.PLUGIN_UNIX_SOCKET_DIR || tmpdir(), `plugin${randomBytes(5).toString('hex')}`);
  let stopping = false;
  const stop = (why) => {
    if (stopping) return;
    stopping = true;
    log('info', 'stopping', { reason: why });
    stdio.stream?.end();
    const exit = () => { rmSync(socket, { force: true }); process.exit(0); };
    server.tryShutdown(exit); // lets the calls in flight, Shutdown's own among them, answer
    setTimeout(() => { server.forceShutdown(); exit(); }, 1000).unref();
  };
  const goPlugin = loadProto('plugin/grpc_controller.proto').plugin;
  server.addService(goPlugin.GRPCController.service, {
    Shutdown: (_call, callback) => { callback(null, {}); stop('GRPCController.Shutdown'); },
  });
  server.addService(loadProto('plugin/grpc_stdio.proto').plugin.GRPCStdio.service, {
    StreamStdio: (call) => {
      stdio.stream = call;
      for (const data of stdio.queue.splice(0)) call.write({ channel: 'STDOUT', data });
      call.on('cancelled', () => { if (stdio.stream === call) stdio.stream = null; });
    },
  });

  if (Buffer.byteLength(socket) > 107) { // Node would bind a truncated path
    process.stderr.write(`${NAME}: cannot listen on the Unix socket ${socket} (a path longer than 107 bytes does not fit)\n`);
    process.exit(1);
  }
  const { creds, certField } = await serverCredentials();
  await new Promise((resolve, reject) => server.bindAsync(`unix:${socket}`, creds, (err) => (err ? reject(err) : resolve())));
  const group = process.env.PLUGIN_UNIX_SOCKET_GROUP;
  if (group) { // the socket's group, by name or id, may connect too
    const entry = readFileSync('/etc/group', 'utf8').split('\n').map((l) => l.split(':')).find((f) => f[0] === group || f[2] === group);
    if (!entry) throw new Error(`PLUGIN_UNIX_SOCKET_GROUP: no group ${group} in /etc/group`);
    chownSync(socket, -1, Number(entry[2]));
    chmodSync(socket, 0o660);
  }

  // A Ctrl-C reaches the whole process group; the host stops its plugins itself.
  process.on('SIGINT', () => log('debug', 'ignoring SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  const parent = process.ppid;
  setInterval(() => { if (process.ppid !== parent) stop('the host process is gone'); }, 500).unref();

  process.stdout.write(`1|${APP_PROTOCOL}|unix|${socket}|grpc|${certField}\n`);
  captureStdout();
  log('debug', 'serving', { socket });
}

main().catch((err) => {
  log('error', 'plugin failed to start', { error: String(err.stack ?? err) });
  process.exit(1);
});

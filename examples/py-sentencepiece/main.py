#!/usr/bin/python3
"""py-sentencepiece: a chunkkit tokenizer plugin in Python.

It serves SentencePiece models (.model files, the Unigram and BPE tokenizers of T5, Llama 2,
Gemma and many vendors) through Debian's python3-sentencepiece, and speaks go-plugin's gRPC
protocol as docs/protocol.md describes it: cookie, version negotiation, AutoMTLS, health,
controller, stdio, Unix socket, parent-death exit. Logs go to stderr as hclog JSON; stdout
carries only the handshake line.

Arguments: NAME=PATH ... the models to serve; the first is the default. A relative PATH is
relative to this file's directory. The shebang names Debian's /usr/bin/python3 on purpose: a
python3 earlier on $PATH (pyenv, a virtualenv) does not see Debian's dist-packages.
"""

import base64
import collections
import datetime
import json
import os
import queue
import secrets
import shutil
import signal
import sys
import tempfile
import threading
from concurrent import futures

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "gen"))  # the stubs install.sh generates from the .proto files

import grpc  # noqa: E402
import sentencepiece  # noqa: E402
from cryptography import x509  # noqa: E402
from cryptography.hazmat.primitives import hashes, serialization  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import ec  # noqa: E402
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID  # noqa: E402

from commonv1 import common_pb2  # noqa: E402
from grpc_health.v1 import health_pb2, health_pb2_grpc  # noqa: E402
from plugin import grpc_controller_pb2, grpc_controller_pb2_grpc  # noqa: E402
from plugin import grpc_stdio_pb2, grpc_stdio_pb2_grpc  # noqa: E402
from tokenizerv1 import tokenizer_pb2, tokenizer_pb2_grpc  # noqa: E402

NAME = "py-sentencepiece"
VERSION = "1.0.0"
PROTOCOL_VERSION = "1.2"  # the header of tokenizer.proto: RetainBoundaries and CountRanges, packed
APP_PROTOCOL = 1  # the major, negotiated in the handshake
COOKIE_KEY = "CHUNKKIT_PLUGIN"
COOKIE_VALUE = "225fe4dcd312a61d9955f80c190fb6cd"
MAX_REQUEST_BYTES = 64 << 20  # docs/protocol.md section 4

# --- logging: hclog's JSON lines on stderr, which the host relays with their level ---
LEVELS = {"trace": 0, "debug": 1, "info": 2, "warn": 3, "error": 4, "off": 5}
MIN_LEVEL = LEVELS.get(os.environ.get("CHUNKKIT_PLUGIN_LOG_LEVEL", "info"), LEVELS["info"])


def log(level, message, **fields):
    if LEVELS[level] < MIN_LEVEL:
        return
    # hclog's timestamp has exactly six fractional digits; go-plugin demotes a line without them.
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    line = {"@level": level, "@message": message, "@timestamp": now, **fields}
    sys.stderr.write(json.dumps(line) + "\n")
    sys.stderr.flush()


# --- the tokenizer ---
def decode(b):
    """Returns the text SentencePiece sees and the byte offset in b of each of its characters
    (one more for the end), or None for ASCII, where they are the same. Each maximal invalid
    subsequence of b becomes one U+FFFD, as bytes.decode(errors="replace") does."""
    if b.isascii():
        return b.decode("ascii"), None, True
    parts, starts, pos, valid = [], [], 0, True
    while pos < len(b):
        try:
            chunk, end = b[pos:].decode("utf-8"), len(b)
        except UnicodeDecodeError as err:
            chunk, end = b[pos:pos + err.start].decode("utf-8"), pos + err.end
            valid = False
        stop = pos + len(chunk.encode("utf-8"))
        starts.extend(i for i in range(pos, stop) if b[i] & 0xC0 != 0x80)
        parts.append(chunk)
        if stop < end:  # the invalid bytes b[stop:end]: one U+FFFD
            starts.append(stop)
            parts.append("\ufffd")
        pos = end
    starts.append(len(b))
    return "".join(parts), starts, valid


def snap_up(b, e):
    """The first offset at or after e that is not inside a character."""
    while e < len(b) and b[e] & 0xC0 == 0x80:
        e += 1
    return e


class Models:
    """The models of the command line, each loaded on first use (the host waits for the
    handshake only so long, so nothing heavy happens before it) and then kept."""

    def __init__(self, args):
        self.paths, self.loaded, self.lock = {}, {}, threading.Lock()
        for arg in args:
            name, sep, path = arg.partition("=")
            if not sep or not name or not path:
                raise SystemExit(f"{NAME}: argument {arg!r}: want NAME=PATH.model")
            path = os.path.join(HERE, path)  # an absolute path stays as it is
            if not os.path.isfile(path):
                raise SystemExit(f"{NAME}: model {name!r}: no file {path}")
            self.paths[name] = path
        if not self.paths:
            raise SystemExit(f"{NAME}: no models; arguments are NAME=PATH.model ...")
        self.names = list(self.paths)

    def get(self, name, context):
        name = name or self.names[0]
        if name not in self.paths:
            context.abort(grpc.StatusCode.NOT_FOUND,
                          f"{NAME}: model {name!r} is not served; this plugin serves {', '.join(self.names)}")
        with self.lock:
            if name not in self.loaded:
                try:
                    self.loaded[name] = sentencepiece.SentencePieceProcessor(model_file=self.paths[name])
                except (OSError, RuntimeError) as err:
                    context.abort(grpc.StatusCode.FAILED_PRECONDITION,
                                  f"{NAME}: model {name!r}: cannot load {self.paths[name]}: {err}")
                log("info", "loaded model", model=name, path=self.paths[name], pieces=self.loaded[name].get_piece_size())
            return self.loaded[name]

    def count(self, sp, b):
        return len(sp.encode(decode(b)[0], out_type=int)) if b else 0

    def ends(self, sp, b):
        """Token end offsets in b: a piece's end, moved to the end of its character for the
        byte pieces of a multi-byte character (which SentencePiece reports as zero-width),
        non-decreasing, the last at len(b) (SentencePiece drops trailing white space)."""
        if not b:
            return []
        text, starts, valid = decode(b)
        out, prev = [], 0
        for p in sp.encode(text, out_type="immutable_proto").pieces:
            e = p.end
            if p.begin == p.end and sp.is_byte(p.id) and e < len(text):
                e += 1
            e = e if starts is None else starts[e]
            prev = max(prev, e if valid else snap_up(b, e))
            out.append(prev)
        if out:
            out[-1] = len(b)
        return out


# --- protocol 1.1 and 1.2: texts kept for CountRanges (docs/protocol.md) ---
KEEP = 64  # requests always kept, the protocol's minimum


class Kept:
    """The texts of the most recent RetainBoundaries requests, by handle, least recently used
    first out."""

    def __init__(self):
        self.lock, self.next, self.texts = threading.Lock(), 0, collections.OrderedDict()

    def put(self, model, texts):
        with self.lock:
            self.next += 1
            self.texts[self.next] = (model, texts)
            while len(self.texts) > KEEP:
                self.texts.popitem(last=False)
            return self.next

    def get(self, handle, model, context):
        with self.lock:
            kept = self.texts.get(handle)
            if kept is not None:
                self.texts.move_to_end(handle)
        if kept is None:
            context.abort(grpc.StatusCode.FAILED_PRECONDITION,
                          f"{NAME}: retained texts {handle} are no longer kept (it keeps the {KEEP} most recent requests); send the texts with Count")
        if kept[0] != model:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT,
                          f"{NAME}: retained texts {handle} were measured for model {kept[0]!r}, not {model!r}")
        return kept[1]


def varint(n):
    """n as an unsigned varint, as protobuf encodes uint64."""
    out = bytearray()
    while n >= 0x80:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return out


def packed_ends(all_ends):
    """RetainedBoundaries.packed_ends: per text its token count, then each token's end minus the
    one before."""
    out = bytearray()
    for ends in all_ends:
        out += varint(len(ends))
        prev = 0
        for e in ends:
            out += varint(e - prev)
            prev = e
    return bytes(out)


class Tokenizer(tokenizer_pb2_grpc.TokenizerServicer):
    def __init__(self, models):
        self.m = models
        self.kept = Kept()

    def RetainBoundaries(self, request, context):
        sp = self.m.get(request.model, context)
        texts = list(request.texts)
        all_ends = [self.m.ends(sp, b) for b in live(texts, context)]
        handle = self.kept.put(request.model, texts)
        if request.packed_ends:
            return tokenizer_pb2.RetainedBoundaries(packed_ends=packed_ends(all_ends), handle=handle, packed_texts=True)
        return tokenizer_pb2.RetainedBoundaries(ends=[common_pb2.Ends(ends=e) for e in all_ends], handle=handle, packed_texts=True)

    def CountRanges(self, request, context):
        sp = self.m.get(request.model, context)
        texts = self.composites(request, context)
        return tokenizer_pb2.CountResponse(counts=[self.m.count(sp, b) for b in live(texts, context)])

    def range_of(self, handle, text, start, end, model, i, j, context):
        """The bytes [start, end) of text `text` of the texts kept under handle, for piece j of
        composite i."""
        texts = self.kept.get(handle, model, context)
        if text >= len(texts):
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"{NAME}: text {i} piece {j}: text {text} of retained texts {handle}, which hold {len(texts)}")
        b = texts[text]
        if start > end or end > len(b):
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"{NAME}: text {i} piece {j}: range [{start}, {end}) outside a text of {len(b)} bytes")
        return b[start:end]

    def composites(self, request, context):
        """The texts of a CountRangesRequest: packed_texts (1.2) when it is set, else texts,
        Composite messages of literal and range pieces."""
        model, packed = request.model, request.packed_texts
        if not packed:
            out = []
            for i, c in enumerate(request.texts):
                parts = []
                for j, p in enumerate(c.pieces):
                    if p.WhichOneof("piece") == "range":
                        r = p.range
                        parts.append(self.range_of(r.handle, r.text, r.start, r.end, model, i, j, context))
                    else:
                        parts.append(p.literal)
                out.append(b"".join(parts))
            return out
        at = 0

        def number(what):
            nonlocal at
            v, shift = 0, 0
            while True:
                if at >= len(packed):
                    context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"{NAME}: packed texts: {what}: unexpected end")
                b = packed[at]
                at += 1
                v |= (b & 0x7F) << shift
                if b < 0x80:
                    return v
                shift += 7
                if shift > 63:
                    context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"{NAME}: packed texts: {what}: not a varint")

        out, i = [], 0
        while at < len(packed):
            parts = []
            for j in range(number(f"composite {i}: number of pieces")):
                x = number(f"composite {i} piece {j}: kind")
                if x % 2 == 0:
                    size = x // 2
                    if size > len(packed) - at:
                        context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"{NAME}: packed texts: composite {i} piece {j}: a literal of {size} bytes, {len(packed) - at} left")
                    parts.append(packed[at:at + size])
                    at += size
                    continue
                h = number(f"composite {i} piece {j}: handle")
                start = number(f"composite {i} piece {j}: start")
                end = start + number(f"composite {i} piece {j}: length")
                if h >= len(request.handles):
                    context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"{NAME}: text {i} piece {j}: handle {h} of {len(request.handles)}")
                parts.append(self.range_of(request.handles[h], x // 2, start, end, model, i, j, context))
            out.append(b"".join(parts))
            i += 1
        return out

    def Info(self, request, context):
        return common_pb2.InfoResponse(name=NAME, version=VERSION, models=self.m.names,
                                       protocol_version=PROTOCOL_VERSION, kinds=["tokenizer"])

    def Count(self, request, context):
        sp = self.m.get(request.model, context)
        return tokenizer_pb2.CountResponse(counts=[self.m.count(sp, b) for b in live(request.texts, context)])

    def Boundaries(self, request, context):
        sp = self.m.get(request.model, context)
        return tokenizer_pb2.BoundariesResponse(ends=[common_pb2.Ends(ends=self.m.ends(sp, b)) for b in live(request.texts, context)])


def live(texts, context):
    """Yields texts while the call lasts: a call the host cancelled stops between two texts."""
    for b in texts:
        if not context.is_active():
            context.abort(grpc.StatusCode.CANCELLED, f"{NAME}: the call was cancelled")
        yield b


class Health(health_pb2_grpc.HealthServicer):
    SERVICES = ("", "plugin")  # go-plugin's host checks "plugin"

    def __init__(self, stop):
        self.stop = stop

    def Check(self, request, context):
        if request.service not in self.SERVICES:
            context.abort(grpc.StatusCode.NOT_FOUND, f"unknown service {request.service!r}")
        return health_pb2.HealthCheckResponse(status=health_pb2.HealthCheckResponse.SERVING)

    def Watch(self, request, context):
        yield self.Check(request, context)
        while context.is_active() and not self.stop.wait(0.5):
            pass  # the status never changes; hold the stream until the call or the plugin ends


class Controller(grpc_controller_pb2_grpc.GRPCControllerServicer):
    def __init__(self, stop):
        self.stop = stop

    def Shutdown(self, request, context):
        self.stop.set()
        return grpc_controller_pb2.Empty()


class Stdio(grpc_stdio_pb2_grpc.GRPCStdioServicer):
    """Streams what is written to sys.stdout after the handshake, so that a stray print reaches
    the host's SyncStdout instead of the handshake pipe."""

    def __init__(self, stop):
        self.stop = stop
        self.q = queue.Queue(maxsize=256)

    def write(self, s):
        try:
            self.q.put_nowait(s.encode("utf-8", "replace"))
        except queue.Full:
            pass
        return len(s)

    def flush(self):
        pass

    def StreamStdio(self, request, context):
        while context.is_active() and not self.stop.is_set():
            try:
                data = self.q.get(timeout=0.5)
            except queue.Empty:
                continue
            yield grpc_stdio_pb2.StdioData(channel=grpc_stdio_pb2.StdioData.STDOUT, data=data)


def server_credentials():
    """AutoMTLS: a fresh self-signed certificate for "localhost", and only clients presenting
    the host's certificate (PLUGIN_CLIENT_CERT) may connect. Returns the credentials and the
    handshake's certificate field: DER in standard base64 without padding."""
    client_cert = os.environ.get("PLUGIN_CLIENT_CERT", "")
    if not client_cert:
        return None, ""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost"),
                      x509.NameAttribute(NameOID.ORGANIZATION_NAME, "chunkkit")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder()
            .subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(seconds=30))
            .not_valid_after(now + datetime.timedelta(days=30))
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=True, key_agreement=True,
                                         content_commitment=False, key_encipherment=False, data_encipherment=False,
                                         crl_sign=False, encipher_only=False, decipher_only=False), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH, ExtendedKeyUsageOID.CLIENT_AUTH]), critical=False)
            .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost")]), critical=False)
            .sign(key, hashes.SHA256()))
    key_pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    creds = grpc.ssl_server_credentials([(key_pem, cert.public_bytes(serialization.Encoding.PEM))],
                                        root_certificates=client_cert.encode(), require_client_auth=True)
    der = cert.public_bytes(serialization.Encoding.DER)
    return creds, base64.b64encode(der).decode().rstrip("=")


def main():
    if os.environ.get(COOKIE_KEY) != COOKIE_VALUE:
        sys.stderr.write("This program is a chunkkit plugin; run it through chunkkit (see docs/plugins-python.md).\n"
                         "chunkkit starts it from a manifest (*.plugins.json) with the handshake in its environment.\n")
        return 1
    offered = os.environ.get("PLUGIN_PROTOCOL_VERSIONS", str(APP_PROTOCOL)).split(",")
    if str(APP_PROTOCOL) not in offered:
        sys.stderr.write(f"{NAME} speaks chunkkit protocol {APP_PROTOCOL}; the host offers {', '.join(offered)}\n")
        return 1
    models = Models(sys.argv[1:])

    stop = threading.Event()
    stdio = Stdio(stop)
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8), options=[
        ("grpc.max_receive_message_length", MAX_REQUEST_BYTES),
        ("grpc.max_send_message_length", -1),
    ])
    tokenizer_pb2_grpc.add_TokenizerServicer_to_server(Tokenizer(models), server)
    health_pb2_grpc.add_HealthServicer_to_server(Health(stop), server)
    grpc_controller_pb2_grpc.add_GRPCControllerServicer_to_server(Controller(stop), server)
    grpc_stdio_pb2_grpc.add_GRPCStdioServicer_to_server(stdio, server)

    # A new socket in the directory the host chose, named as go-plugin names its own.
    socket = os.path.join(os.environ.get("PLUGIN_UNIX_SOCKET_DIR") or tempfile.gettempdir(), "plugin" + secrets.token_hex(5))
    creds, cert_field = server_credentials()
    try:
        bound = server.add_insecure_port("unix:" + socket) if creds is None else server.add_secure_port("unix:" + socket, creds)
    except RuntimeError:
        bound = 0
    if not bound:
        sys.stderr.write(f"{NAME}: cannot listen on the Unix socket {socket} (a path longer than 107 bytes does not fit)\n")
        return 1
    server.start()
    group = os.environ.get("PLUGIN_UNIX_SOCKET_GROUP")
    if group:  # the socket's group, by name or id, may connect too
        try:
            shutil.chown(socket, group=int(group) if group.isdigit() else group)
            os.chmod(socket, 0o660)
        except (LookupError, OSError) as err:
            sys.stderr.write(f"{NAME}: PLUGIN_UNIX_SOCKET_GROUP={group}: {err}\n")
            return 1

    # A Ctrl-C reaches the whole process group; the host stops its plugins itself.
    signal.signal(signal.SIGINT, lambda *_: log("debug", "ignoring SIGINT"))
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    parent = os.getppid()

    def watch_parent():
        while not stop.wait(0.5):
            if os.getppid() != parent:
                log("info", "the host process is gone; stopping")
                stop.set()

    threading.Thread(target=watch_parent, daemon=True).start()

    sys.stdout.write(f"1|{APP_PROTOCOL}|unix|{socket}|grpc|{cert_field}\n")
    sys.stdout.flush()
    sys.stdout = stdio
    log("debug", "serving", socket=socket)

    stop.wait()
    server.stop(grace=1).wait()  # lets the calls in flight, Shutdown's own among them, answer
    if os.path.exists(socket):
        os.remove(socket)
    return 0


if __name__ == "__main__":
    sys.exit(main())

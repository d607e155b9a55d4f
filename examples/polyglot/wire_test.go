package polyglot

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"math/big"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/chunkkit/chunkkit/host"
	"github.com/chunkkit/chunkkit/internal/protocol/tokenizerv1"
	sdkplugin "github.com/chunkkit/chunkkit/sdk/plugin"
)

// Tests that speak to the plugins as go-plugin does, without the host: the handshake line,
// mutual TLS, and the go-plugin services a host calls.

func TestTheHandshakeAndMutualTLSAreGoPlugins(t *testing.T) {
	need(t)
	for _, name := range []string{nodePlugin, pyPlugin} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			client := newClientCert(t)
			// A Unix socket path must fit in 108 bytes: t.TempDir's are long.
			sockDir, err := os.MkdirTemp("", "ck")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(sockDir) })
			p := start(t, name, "PLUGIN_CLIENT_CERT="+string(client.pem), "PLUGIN_UNIX_SOCKET_DIR="+sockDir)
			f := p.fields
			if len(f) != 6 || f[0] != "1" || f[1] != "1" || f[2] != "unix" || f[4] != "grpc" {
				t.Fatalf("handshake %q: want 1|1|unix|ADDRESS|grpc|CERT", p.line)
			}
			if !strings.HasPrefix(f[3], sockDir+string(filepath.Separator)) {
				t.Errorf("socket %s is not in PLUGIN_UNIX_SOCKET_DIR %s", f[3], sockDir)
			}
			der, err := base64.RawStdEncoding.DecodeString(f[5])
			if err != nil {
				t.Fatalf("server certificate field: %v (want standard base64 without padding)", err)
			}
			server, err := x509.ParseCertificate(der)
			if err != nil {
				t.Fatal(err)
			}
			if err := server.VerifyHostname("localhost"); err != nil {
				t.Errorf("server certificate: %v", err)
			}
			roots := x509.NewCertPool()
			roots.AddCert(server)

			ok := dial(t, f[3], credentials.NewTLS(&tls.Config{Certificates: []tls.Certificate{client.pair}, RootCAs: roots, ServerName: "localhost", MinVersion: tls.VersionTLS12}))
			health, err := healthpb.NewHealthClient(ok).Check(t.Context(), &healthpb.HealthCheckRequest{Service: "plugin"})
			if err != nil || health.Status != healthpb.HealthCheckResponse_SERVING {
				t.Errorf("health of service plugin = %v, %v; want SERVING", health, err)
			}
			_, err = tokenizerv1.NewTokenizerClient(ok).Count(t.Context(), &tokenizerv1.CountRequest{Model: "p99k_base", Texts: [][]byte{[]byte("x")}})
			if status.Code(err) != codes.NotFound || !strings.Contains(err.Error(), "serves") {
				t.Errorf("Count with an unknown model = %v, want NOT_FOUND that lists the models", err)
			}
			// go-plugin's host opens GRPCStdio at once and keeps it open.
			ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
			stdio, err := ok.NewStream(ctx, &grpc.StreamDesc{ServerStreams: true}, "/plugin.GRPCStdio/StreamStdio")
			if err == nil {
				err = stdio.SendMsg(&emptypb.Empty{})
			}
			if err == nil {
				err = stdio.RecvMsg(new(emptypb.Empty))
			}
			cancel()
			if status.Code(err) != codes.DeadlineExceeded {
				t.Errorf("GRPCStdio.StreamStdio = %v, want a stream held open until the deadline", err)
			}

			// Without the host's certificate, no call gets through.
			stranger := newClientCert(t)
			for what, creds := range map[string]credentials.TransportCredentials{
				"no client certificate":     credentials.NewTLS(&tls.Config{RootCAs: roots, ServerName: "localhost"}),
				"another certificate":       credentials.NewTLS(&tls.Config{Certificates: []tls.Certificate{stranger.pair}, RootCAs: roots, ServerName: "localhost"}),
				"no TLS at all (plaintext)": insecure.NewCredentials(),
			} {
				ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
				_, err := healthpb.NewHealthClient(dial(t, f[3], creds)).Check(ctx, &healthpb.HealthCheckRequest{Service: "plugin"})
				cancel()
				if err == nil {
					t.Errorf("a client with %s passed the health check", what)
				}
			}

			// GRPCController.Shutdown ends the process, cleanly.
			if err := ok.Invoke(t.Context(), "/plugin.GRPCController/Shutdown", &emptypb.Empty{}, &emptypb.Empty{}); err != nil {
				t.Fatalf("Shutdown: %v", err)
			}
			if err := p.wait(5 * time.Second); err != nil {
				t.Errorf("after Shutdown: %v; stderr:\n%s", err, p.stderr.String())
			}
			if _, err := os.Stat(f[3]); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the socket %s is left behind after Shutdown (%v)", f[3], err)
			}
		})
	}
}

func TestWithoutAClientCertificateThePluginServesPlaintext(t *testing.T) {
	need(t)
	for _, name := range []string{nodePlugin, pyPlugin} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p := start(t, name)
			if !strings.HasSuffix(p.line, "|grpc|") {
				t.Fatalf("handshake %q: want an empty certificate field", p.line)
			}
			info, err := tokenizerv1.NewTokenizerClient(dial(t, p.fields[3], insecure.NewCredentials())).Info(t.Context(), nil)
			if err != nil || info.GetName() != name {
				t.Errorf("Info = %v, %v", info, err)
			}
		})
	}
}

func TestProtocolVersionsAreNegotiated(t *testing.T) {
	need(t)
	for _, name := range []string{nodePlugin, pyPlugin} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p := start(t, name, "PLUGIN_PROTOCOL_VERSIONS=3,1,2")
			if p.fields[1] != "1" {
				t.Errorf("offered 3,1,2, the plugin chose %q; want 1", p.fields[1])
			}
			cmd, stdout, stderr := command(t, name, "PLUGIN_PROTOCOL_VERSIONS=2,3")
			err := cmd.Run()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 1 || stdout.Len() != 0 || !strings.Contains(stderr.String(), "protocol 1") {
				t.Errorf("offered only 2,3: %v, stdout %q, stderr %q; want exit 1, nothing on stdout, the versions on stderr", err, stdout, stderr)
			}
		})
	}
}

func TestRunByHandThePluginsSayWhatTheyAre(t *testing.T) {
	need(t)
	for _, name := range []string{nodePlugin, pyPlugin} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cmd, stdout, stderr := command(t, name)
			cmd.Env = os.Environ() // no cookie
			err := cmd.Run()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 1 {
				t.Fatalf("run by hand: %v, want exit status 1", err)
			}
			if stdout.Len() != 0 || !strings.Contains(stderr.String(), "run it through chunkkit") {
				t.Errorf("stdout %q, stderr %q; want nothing, and an explanation", stdout, stderr)
			}
		})
	}
}

func TestTheSocketBelongsToPluginUnixSocketGroup(t *testing.T) {
	need(t)
	if os.Geteuid() != 0 {
		t.Skip("needs root, to give the socket a group the test user is not in")
	}
	group, err := user.LookupGroup("daemon")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{nodePlugin, pyPlugin} {
		for _, value := range []string{group.Name, group.Gid} {
			t.Run(name+" "+value, func(t *testing.T) {
				t.Parallel()
				p := start(t, name, "PLUGIN_UNIX_SOCKET_GROUP="+value)
				info, err := os.Stat(p.fields[3])
				if err != nil {
					t.Fatal(err)
				}
				st := info.Sys().(*syscall.Stat_t)
				if strconv.Itoa(int(st.Gid)) != group.Gid || info.Mode().Perm() != 0o660 {
					t.Errorf("socket gid %d, mode %v; want gid %s, mode 0660", st.Gid, info.Mode().Perm(), group.Gid)
				}
			})
		}
	}
}

func TestASocketPathTooLongIsAnErrorThatSaysSo(t *testing.T) {
	need(t)
	long := filepath.Join(t.TempDir(), strings.Repeat("d", 100))
	if err := os.Mkdir(long, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{nodePlugin, pyPlugin} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cmd, stdout, stderr := command(t, name, "PLUGIN_UNIX_SOCKET_DIR="+long)
			err := cmd.Run()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 1 || stdout.Len() != 0 || !strings.Contains(stderr.String(), long) {
				t.Errorf("socket directory of %d bytes: %v, stdout %q, stderr %q; want exit 1 and the path on stderr", len(long), err, stdout, stderr)
			}
		})
	}
}

func TestThePluginsCarryTheHandshakeConstantsOfTheGoSide(t *testing.T) {
	t.Parallel()
	for _, src := range []string{"../node-gpt/main.mjs", "../py-sentencepiece/main.py"} {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		// Both implement 1.2 (a plugin of 1.0, without RetainBoundaries and CountRanges, would
		// do too: the host goes without): the major must be the Go side's, the minor at most its.
		m := regexp.MustCompile(`PROTOCOL_VERSION = ["'](\d+)\.(\d+)["']`).FindSubmatch(data)
		if m == nil {
			t.Errorf("%s declares no PROTOCOL_VERSION = 'MAJOR.MINOR'", src)
		} else if major, minor := string(m[1]), string(m[2]); major != strconv.Itoa(tokenizerv1.ProtocolVersion) || atoi(minor) > tokenizerv1.ProtocolMinor {
			t.Errorf("%s implements protocol %s.%s; the Go side is %s", src, major, minor, tokenizerv1.Version())
		}
		for _, want := range []string{sdkplugin.MagicCookieKey, sdkplugin.MagicCookieValue,
			"APP_PROTOCOL = " + strconv.Itoa(sdkplugin.ProtocolVersion), "MAX_REQUEST_BYTES = " + strconv.Itoa(sdkplugin.MaxMessageBytes>>20) + " << 20"} {
			pattern := regexp.QuoteMeta(want)
			pattern = strings.ReplaceAll(pattern, `\?`, `["']`)
			if !regexp.MustCompile(pattern).Match(data) {
				t.Errorf("%s lacks %s", src, want)
			}
		}
	}
}

func TestTheInstalledProtoFilesAreTheRepositorysOwn(t *testing.T) {
	need(t)
	goPlugin, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/hashicorp/go-plugin").Output()
	if err != nil {
		t.Fatal(err)
	}
	sources := map[string]string{
		"plugin/grpc_controller.proto": filepath.Join(strings.TrimSpace(string(goPlugin)), "internal/plugin/grpc_controller.proto"),
		"plugin/grpc_stdio.proto":      filepath.Join(strings.TrimSpace(string(goPlugin)), "internal/plugin/grpc_stdio.proto"),
	}
	protos, err := filepath.Glob("../../internal/protocol/*/*.proto")
	if err != nil || len(protos) == 0 {
		t.Fatalf("no .proto files under internal/protocol: %v", err)
	}
	for _, p := range protos {
		rel, _ := filepath.Rel("../../internal/protocol", p)
		sources[filepath.ToSlash(rel)] = p
	}
	for _, name := range []string{nodePlugin, pyPlugin} {
		for rel, src := range sources {
			want, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(filepath.Join(dir, name, "proto", rel))
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s/proto/%s differs from %s", name, rel, src)
			}
		}
	}
}

// process is a plugin process started by start.
type process struct {
	cmd    *exec.Cmd
	line   string   // the handshake line
	fields []string // its fields
	stderr *syncBuffer
	done   chan error
}

// wait waits up to d for the process to exit with status 0.
func (p *process) wait(d time.Duration) error {
	select {
	case err := <-p.done:
		return err
	case <-time.After(d):
		return errors.New("still running")
	}
}

// command returns the installed plugin's command with the handshake environment and env.
func command(t *testing.T, name string, env ...string) (*exec.Cmd, *bytes.Buffer, *syncBuffer) {
	t.Helper()
	cat, err := host.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	entry, ok := cat.Lookup(name)
	if !ok {
		t.Fatalf("no plugin %s in %s", name, dir)
	}
	// The plugins put their sockets in $TMPDIR by default, and a killed plugin leaves its socket
	// behind: a directory of the test's own keeps them out of /tmp (short, as a socket path
	// must fit in 108 bytes).
	tmp, err := os.MkdirTemp("", "ck")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	cmd := exec.Command(entry.Path, entry.Args...)
	cmd.Env = append(append(append(os.Environ(), "TMPDIR="+tmp), handshakeEnv()...), env...)
	stdout, stderr := new(bytes.Buffer), new(syncBuffer)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	return cmd, stdout, stderr
}

// start starts the installed plugin as go-plugin would, with env added, and reads its
// handshake line. The process is killed when the test ends.
func start(t *testing.T, name string, env ...string) *process {
	t.Helper()
	cmd, _, stderr := command(t, name, env...)
	cmd.Stdout = nil
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &process{cmd: cmd, stderr: stderr, done: make(chan error, 1)}
	lines := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(out).ReadString('\n')
		lines <- line
		p.done <- cmd.Wait()
	}()
	t.Cleanup(func() { cmd.Process.Kill() })
	select {
	case line := <-lines:
		p.line = strings.TrimSuffix(line, "\n")
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: no handshake line in 10s; stderr:\n%s", name, stderr.String())
	}
	p.fields = strings.Split(p.line, "|")
	if len(p.fields) < 6 {
		t.Fatalf("%s: handshake line %q; stderr:\n%s", name, p.line, stderr.String())
	}
	return p
}

// dial connects to a plugin's Unix socket with creds.
func dial(t *testing.T, socket string, creds credentials.TransportCredentials) *grpc.ClientConn {
	t.Helper()
	conn, err := grpc.NewClient("passthrough:///plugin",
		grpc.WithTransportCredentials(creds),
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) {
			return new(net.Dialer).DialContext(ctx, "unix", socket)
		}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// clientCert is a certificate like the one go-plugin's AutoMTLS makes for the host.
type clientCert struct {
	pem  []byte
	pair tls.Certificate
}

func newClientCert(t *testing.T) clientCert {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P521(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(time.Now().UnixNano()),
		Subject:               pkix.Name{CommonName: "localhost", Organization: []string{"HashiCorp"}},
		DNSNames:              []string{"localhost"},
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth, x509.ExtKeyUsageServerAuth},
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment | x509.KeyUsageKeyAgreement | x509.KeyUsageCertSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
		NotBefore:             time.Now().Add(-30 * time.Second),
		NotAfter:              time.Now().Add(time.Hour),
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	pair, err := tls.X509KeyPair(certPEM, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}))
	if err != nil {
		t.Fatal(err)
	}
	return clientCert{certPEM, pair}
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return -1
	}
	return n
}

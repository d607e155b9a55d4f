package bench_test

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/chunkkit/chunkkit/host"
	"github.com/chunkkit/chunkkit/plugins/tiktoken"
	"github.com/chunkkit/chunkkit/sdk/serve"
)

// phaseMarks are the log messages that end each phase of a plugin's start, in order, with the
// phase's name: the host's and go-plugin's, and the plugin's own (relayed from its stderr at
// debug level).
var phaseMarks = []struct{ msg, phase string }{
	{"binary checked", "check"}, // host: its private directory and watchdog, the binary's checks and SHA-256, its certificate (once), at once
	{"created temporary directory for unix sockets", "socket-dir"},
	{"waiting for RPC address", "exec"},                  // fork and exec
	{"configuring server automatic mTLS", "plugin-init"}, // plugin: runtime init to Serve
	{"plugin address", "plugin-cert"},                    // plugin: its certificate
	{"using plugin", "handshake-line"},                   // host reads the handshake line
}

// markLog records when each line of a trace log was written.
type markLog struct {
	mu    sync.Mutex
	lines []string
	times []time.Time
}

func (l *markLog) Write(p []byte) (int, error) {
	now := time.Now()
	l.mu.Lock()
	l.lines, l.times = append(l.lines, string(bytes.TrimSpace(p))), append(l.times, now)
	l.mu.Unlock()
	return len(p), nil
}

// at returns when the first line holding msg was written.
func (l *markLog) at(msg string) (time.Time, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for i, line := range l.lines {
		if strings.Contains(line, msg) {
			return l.times[i], true
		}
	}
	return time.Time{}, false
}

// BenchmarkColdStartPhases is BenchmarkColdStart with the time split into phases, each
// reported as a metric in ms (its mean per start): the host's checks of the binary (with its
// private directory and, on a host's first start, its client certificate), go-plugin's socket
// directory, fork and exec, the plugin's start
// until Serve, its certificate, the handshake line, then the rest of host.TokenCounter
// (connection, TLS handshake, Info, and the probe's Count and Boundaries, which wait for the
// encoding the plugin started loading at its start, told by the host's preload hint), the
// first Count, and Close (not part of the cold start).
func BenchmarkColdStartPhases(b *testing.B) {
	cat := pluginCatalog(b)
	b.Setenv(serve.LogLevelEnv, "debug")
	for _, model := range tiktoken.Encodings() {
		b.Run("enc="+model, func(b *testing.B) {
			sums := map[string]time.Duration{}
			var total time.Duration
			for b.Loop() {
				log := &markLog{}
				logger := hclog.New(&hclog.LoggerOptions{Output: log, Level: hclog.Trace})
				t0 := time.Now()
				h := host.New(cat, host.Options{Logger: logger})
				c, err := h.TokenCounter(context.Background(), "tiktoken:"+model)
				if err != nil {
					b.Fatal(err)
				}
				tc := time.Now()
				if _, err := c.Count(context.Background(), []string{"warm up"}); err != nil {
					b.Fatal(err)
				}
				tf := time.Now()
				if err := h.Close(); err != nil {
					b.Fatal(err)
				}
				te := time.Now()
				prev := t0
				for _, m := range phaseMarks {
					at, ok := log.at(m.msg)
					if !ok {
						b.Fatalf("no %q in the host's log:\n%s", m.msg, strings.Join(log.lines, "\n"))
					}
					sums[m.phase] += at.Sub(prev)
					prev = at
				}
				sums["connect-load-probe"] += tc.Sub(prev)
				sums["first-count"] += tf.Sub(tc)
				sums["close"] += te.Sub(tf)
				total += tf.Sub(t0)
			}
			for _, m := range phaseMarks {
				b.ReportMetric(ms(sums[m.phase], b.N), m.phase+"-ms")
			}
			b.ReportMetric(ms(sums["connect-load-probe"], b.N), "connect-load-probe-ms")
			b.ReportMetric(ms(sums["first-count"], b.N), "first-count-ms")
			b.ReportMetric(ms(total, b.N), "cold-start-ms")
			b.ReportMetric(ms(sums["close"], b.N), "close-ms")
		})
	}
}

func ms(d time.Duration, n int) float64 { return float64(d) / float64(n) / 1e6 }

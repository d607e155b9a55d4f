package serve

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"
)

func TestStartCPUProfile(t *testing.T) {
	if f := flag.Lookup("test.cpuprofile"); f != nil && f.Value.String() != "" {
		t.Skip("go test -cpuprofile holds the process's one CPU profile")
	}
	t.Run("unset, nothing is written", func(t *testing.T) {
		dir := t.TempDir()
		startCPUProfile(func(string) string { return "" }, hclog.NewNullLogger())()
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("files written without %s: %v", CPUProfileEnv, entries)
		}
	})
	t.Run("set, a pprof profile is written to the path and the process ID", func(t *testing.T) {
		base := filepath.Join(t.TempDir(), "plugin.prof")
		stop := startCPUProfile(func(k string) string {
			if k == CPUProfileEnv {
				return base
			}
			return ""
		}, hclog.NewNullLogger())
		stop()
		data, err := os.ReadFile(fmt.Sprintf("%s.%d", base, os.Getpid()))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
			t.Errorf("the profile is not gzipped pprof data: % x", data[:min(len(data), 8)])
		}
	})
	t.Run("a path that cannot be written is logged, and serving goes on", func(t *testing.T) {
		var log bytes.Buffer
		logger := hclog.New(&hclog.LoggerOptions{Output: &log})
		stop := startCPUProfile(func(string) string { return filepath.Join(t.TempDir(), "missing", "p") }, logger)
		stop()
		if !strings.Contains(log.String(), "cannot write the CPU profile") {
			t.Errorf("log = %q, want a warning about the profile", log.String())
		}
	})
}

package tiktoken_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/chunkkit/chunkkit/plugins/tiktoken"
)

// offlineChildEnv marks the process TestNeverTouchesNetworkOrCacheDirs starts.
const offlineChildEnv = "CHUNKKIT_TIKTOKEN_OFFLINE_CHILD"

// TestNeverTouchesNetworkOrCacheDirs builds every counter in a fresh process (tiktoken-go
// caches loaded vocabularies per process, so this process may have loaded them already) whose
// HTTP proxy is a server that counts requests and whose cache directories are empty, and
// checks that nothing was requested and nothing was written.
func TestNeverTouchesNetworkOrCacheDirs(t *testing.T) {
	t.Parallel()
	var requests atomic.Int64
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		http.Error(w, "no network in tests", http.StatusForbidden)
	}))
	defer proxy.Close()

	tiktokenCache, gymCache, tmp := t.TempDir(), t.TempDir(), t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestOfflineChild$", "-test.count=1")
	cmd.Env = append(os.Environ(),
		offlineChildEnv+"=1",
		"TIKTOKEN_CACHE_DIR="+tiktokenCache,
		"DATA_GYM_CACHE_DIR="+gymCache,
		"TMPDIR="+tmp,
		"HTTP_PROXY="+proxy.URL, "HTTPS_PROXY="+proxy.URL, "http_proxy="+proxy.URL, "https_proxy="+proxy.URL,
		"NO_PROXY=", "no_proxy=",
	)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("child process: %v\n%s", err, out)
	}
	if n := requests.Load(); n != 0 {
		t.Errorf("the counters made %d HTTP requests, want none", n)
	}
	for _, dir := range []string{tiktokenCache, gymCache} {
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("cache directory %s holds %d entries, want none", dir, len(entries))
		}
	}
	if _, err := os.Stat(filepath.Join(tmp, "data-gym-cache")); !os.IsNotExist(err) {
		t.Errorf("$TMPDIR/data-gym-cache exists (stat: %v), want no cache written", err)
	}
}

// TestOfflineChild is the process TestNeverTouchesNetworkOrCacheDirs starts.
func TestOfflineChild(t *testing.T) {
	if os.Getenv(offlineChildEnv) != "1" {
		t.Skip("runs only as the child process of TestNeverTouchesNetworkOrCacheDirs")
	}
	for _, model := range tiktoken.Models() {
		enc, backend, err := tiktoken.ParseModel(model)
		if err != nil {
			t.Fatal(err)
		}
		c, err := tiktoken.New(enc, backend)
		if err != nil {
			t.Fatalf("New(%q, %q): %v", enc, backend, err)
		}
		counts, err := c.Count(context.Background(), []string{"offline"})
		if err != nil || counts[0] == 0 {
			t.Fatalf("%s: Count = %v, %v", model, counts, err)
		}
	}
}

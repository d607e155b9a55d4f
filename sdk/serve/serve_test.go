package serve

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/chunkkit/chunkkit/sdk/plugin"
)

func TestLaunchedByHost(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		env  map[string]string
		want bool
	}{
		{name: "the handshake cookie means a host started the plugin", env: map[string]string{plugin.MagicCookieKey: plugin.MagicCookieValue}, want: true},
		{name: "no cookie means someone ran the binary by hand", env: map[string]string{}, want: false},
		{name: "a wrong cookie is no cookie", env: map[string]string{plugin.MagicCookieKey: "other"}, want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := launchedByHost(func(k string) string { return tt.env[k] }); got != tt.want {
				t.Errorf("launchedByHost = %t, want %t", got, tt.want)
			}
		})
	}
}

func TestWatchParent(t *testing.T) {
	t.Parallel()
	t.Run("a new parent process means the host is gone", func(t *testing.T) {
		t.Parallel()
		var ppid atomic.Int64
		ppid.Store(100)
		gone := make(chan struct{}, 2)
		stop := watchParent(func() int { return int(ppid.Load()) }, time.Millisecond, func() { gone <- struct{}{} })
		defer stop()
		time.Sleep(10 * time.Millisecond)
		if len(gone) != 0 {
			t.Fatal("gone was called while the parent was unchanged")
		}
		ppid.Store(1)
		select {
		case <-gone:
		case <-time.After(10 * time.Second):
			t.Fatal("gone was not called after the parent changed")
		}
		time.Sleep(10 * time.Millisecond)
		if len(gone) != 0 {
			t.Error("gone was called more than once")
		}
	})
	t.Run("a stopped watch never fires", func(t *testing.T) {
		t.Parallel()
		var ppid atomic.Int64
		ppid.Store(100)
		var fired atomic.Bool
		stop := watchParent(func() int { return int(ppid.Load()) }, time.Millisecond, func() { fired.Store(true) })
		stop()
		stop() // idempotent
		ppid.Store(1)
		time.Sleep(20 * time.Millisecond)
		if fired.Load() {
			t.Error("gone was called after stop")
		}
	})
}

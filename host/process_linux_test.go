//go:build linux

package host

import (
	"context"
	"errors"
	"github.com/chunkkit/chunkkit/sdk/plugin"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// Tests that kill processes and read Linux's process table.

func TestAPluginKilledBetweenCallsIsRestartedTransparently(t *testing.T) {
	dir, bin := setup(t)
	checkLeaks(t, bin)
	h := newHost(t, dir, Options{})
	ctx := context.Background()
	tc, err := h.TokenCounter(ctx, "plugin:faulty")
	if err != nil {
		t.Fatal(err)
	}
	pid := pluginPID(h, "faulty")
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if !waitGone(pid, 3*time.Second) {
		t.Fatalf("plugin %d survived SIGKILL", pid)
	}
	// Wait until go-plugin has noticed, so the next call sees a dead process, not a live one.
	deadline := time.Now().Add(3 * time.Second)
	for pluginPID(h, "faulty") == pid && time.Now().Before(deadline) {
		h.mu.Lock()
		inst := h.sups["faulty"].cur
		h.mu.Unlock()
		if inst.client.Exited() {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	got, err := tc.Count(ctx, []string{"back again"})
	if err != nil {
		t.Fatalf("call after the plugin was killed between calls: %v", err)
	}
	if diff := cmp.Diff([]int{2}, got); diff != "" {
		t.Errorf("Count (-want +got):\n%s", diff)
	}
	if n := starts(h, "faulty"); n != 2 {
		t.Errorf("started %d processes, want 2", n)
	}
}

func TestPluginsDieWhenTheirHostIsKilled(t *testing.T) {
	dir, bin := setup(t)
	helper, pid, stderr := startHelper(t, "sigkill", dir, "plugin:faulty")
	if !alive(pid) {
		t.Fatalf("plugin %d is not running; helper stderr:\n%s", pid, stderr.String())
	}
	if err := helper.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	helper.Wait()
	// The orphan is reparented; when the kernel kills it, its new parent reaps it (or leaves a
	// zombie, which is dead all the same).
	if !waitGone(pid, 3*time.Second) {
		t.Errorf("plugin %d still running 3s after its host was SIGKILLed: %v", pid, processesOf(bin))
	}
}

func TestCloseOnSignalStopsThePluginsAndEndsTheProgram(t *testing.T) {
	dir, _ := setup(t)
	helper, pid, stderr := startHelper(t, "sigterm", dir, "plugin:faulty")
	if err := helper.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- helper.Wait() }()
	select {
	case err := <-done:
		var exit interface{ Sys() any }
		if !errors.As(err, &exit) {
			t.Fatalf("helper ended with %v, want killed by SIGTERM", err)
		}
		if ws, ok := exit.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
			t.Errorf("helper ended with %v, want killed by SIGTERM", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("helper still running 5s after SIGTERM; stderr:\n%s", stderr.String())
	}
	if !waitGone(pid, 3*time.Second) {
		t.Errorf("plugin %d still running after its host closed on SIGTERM", pid)
	}
	// The host closed the plugin itself (go-plugin logs its exit) rather than leaving it to
	// Pdeathsig.
	for _, want := range []string{"closing plugins on signal", "plugin process exited"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("helper stderr lacks %q:\n%s", want, stderr.String())
		}
	}
}

func TestAServedPluginDiesWhenItsHostIsKilled(t *testing.T) {
	dir, bin := setupServed(t, plugin.KindTokenizer)
	helper, pid, stderr := startHelper(t, "sigkill", dir, "plugin:served:words")
	if !alive(pid) {
		t.Fatalf("plugin %d is not running; helper stderr:\n%s", pid, stderr.String())
	}
	helper.Process.Kill()
	helper.Wait()
	if !waitGone(pid, 3*time.Second) {
		t.Errorf("plugin %d still running 3s after its host was SIGKILLed: %v", pid, processesOf(bin))
	}
}

package host

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/plugin"
)

// TestCountingPiecesSendsRangesAndSurvivesARestart checks protocol 1.1 through a real plugin
// process: a counter from the host keeps its Boundaries texts on the plugin, counts pieces of
// them exactly, and when the process is killed in between, counts the same by sending the
// texts to the new process.
func TestCountingPiecesSendsRangesAndSurvivesARestart(t *testing.T) {
	dir, bin := setupServed(t, plugin.KindTokenizer)
	checkLeaks(t, bin)
	h := newHost(t, dir, Options{})
	ctx := context.Background()
	tc, err := h.TokenCounter(ctx, "plugin:served:words")
	if err != nil {
		t.Fatal(err)
	}
	r, ok := tc.(sdk.Retainer)
	if !ok {
		t.Fatalf("the host's counter %T is not an sdk.Retainer", tc)
	}
	texts := []string{"the first block of words", "and a second one", ""}
	bounds, ret, err := r.RetainBoundaries(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := (sdk.Words{}).Boundaries(ctx, texts); !cmp.Equal(want, bounds) {
		t.Errorf("boundaries %v, want %v", bounds, want)
	}
	if _, ok := ret.(*pluginRetained); !ok {
		t.Fatalf("Retained is %T: the plugin did not keep the texts (protocol 1.1)", ret)
	}
	items := [][]sdk.Piece{
		{sdk.LiteralPiece("Title › Section\n\n"), {Text: 0, Start: 4, End: 24}, sdk.LiteralPiece("\n\n"), {Text: 1, Start: 0, End: 5}},
		{{Text: 2, Start: 0, End: 0}},
	}
	built, err := sdk.Build(texts, items)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := sdk.Words{}.Count(ctx, built)
	got, err := ret.CountPieces(ctx, items)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("CountPieces (-want +got):\n%s", diff)
	}

	pid := pluginPID(h, "served")
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if !waitGone(pid, 3*time.Second) {
		t.Fatalf("plugin %d survived SIGKILL", pid)
	}
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		h.mu.Lock()
		inst := h.sups["served"].cur
		h.mu.Unlock()
		if inst == nil || inst.client.Exited() {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	// The first call after the crash may report it; the one after runs on a new process that
	// never saw the texts, and must still count them.
	if _, err := ret.CountPieces(ctx, items); err != nil {
		t.Logf("first call after the kill: %v", err)
	}
	got, err = ret.CountPieces(ctx, items)
	if err != nil {
		t.Fatalf("counting pieces after a restart: %v", err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("CountPieces after a restart (-want +got):\n%s", diff)
	}
	if pluginPID(h, "served") == pid {
		t.Error("the plugin was not restarted")
	}
}

package sdk_test

import (
	"context"
	"testing"

	"github.com/chunkkit/chunkkit/sdk"
)

func TestStartWait(t *testing.T) {
	t.Parallel()
	t.Run("without a hook it returns a function that does nothing", func(t *testing.T) {
		t.Parallel()
		resume := sdk.StartWait(context.Background())
		if resume == nil {
			t.Fatal("StartWait returned nil")
		}
		resume()
	})
	t.Run("with a hook it calls the hook, and its resume once the wait is over", func(t *testing.T) {
		t.Parallel()
		var events []string
		ctx := sdk.WithWaitHook(context.Background(), func() func() {
			events = append(events, "wait")
			return func() { events = append(events, "resume") }
		})
		ctx, cancel := context.WithCancel(ctx) // a derived context keeps the hook
		defer cancel()
		resume := sdk.StartWait(ctx)
		events = append(events, "answer")
		resume()
		if got, want := len(events), 3; got != want || events[0] != "wait" || events[1] != "answer" || events[2] != "resume" {
			t.Errorf("events = %v, want [wait answer resume]", events)
		}
	})
	t.Run("a hook that returns nil gives a function that does nothing", func(t *testing.T) {
		t.Parallel()
		ctx := sdk.WithWaitHook(context.Background(), func() func() { return nil })
		sdk.StartWait(ctx)()
	})
}

func TestStartPark(t *testing.T) {
	t.Parallel()
	if resume, ok := sdk.StartPark(context.Background()); !ok && resume != nil {
		resume()
	} else {
		t.Error("a context without a park hook says it can park")
	}
	if sdk.CanPark(context.Background()) {
		t.Error("CanPark without a hook")
	}
	parked, resumed := 0, 0
	ctx := sdk.WithParkHook(context.Background(), func() func() {
		parked++
		return func() { resumed++ }
	})
	if !sdk.CanPark(ctx) {
		t.Error("CanPark with a hook is false")
	}
	resume, ok := sdk.StartPark(ctx)
	if !ok || parked != 1 || resumed != 0 {
		t.Fatalf("StartPark: ok %t, parked %d, resumed %d; want true, 1, 0", ok, parked, resumed)
	}
	resume()
	if resumed != 1 {
		t.Errorf("resumed %d times, want 1", resumed)
	}
}

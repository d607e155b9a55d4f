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

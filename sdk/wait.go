package sdk

import "context"

// waitHookKey is the context key of a wait hook.
type waitHookKey struct{}

// WithWaitHook returns a copy of ctx that carries hook. A counter or splitter that is about to
// wait on another process (a plugin's answer) calls StartWait, which calls hook; hook returns
// the function that StartWait's caller calls once the answer is in. A scheduler uses it the way
// Go's runtime hands off a processor during a system call: it lets another job run on the
// caller's place while the caller only waits, and takes the place back before the caller goes
// on, and it may bound how many wait at once. hook must be safe for concurrent use, and the
// function it returns is called exactly once.
func WithWaitHook(ctx context.Context, hook func() (resume func())) context.Context {
	return context.WithValue(ctx, waitHookKey{}, hook)
}

// StartWait tells ctx's wait hook, if it has one (WithWaitHook), that the caller is about to
// wait on another process, and returns the function to call when the wait is over. Either may
// block: StartWait until it is the caller's turn to call (a scheduler may bound the calls in
// flight), the function until the caller's place to work is free again. Call it before
// choosing what to call, so that a caller that queued calls what is current once it is its
// turn. It never returns nil; without a hook it returns a function that does nothing.
func StartWait(ctx context.Context) (resume func()) {
	if hook, ok := ctx.Value(waitHookKey{}).(func() func()); ok && hook != nil {
		if resume := hook(); resume != nil {
			return resume
		}
	}
	return func() {}
}

// parkHookKey is the context key of a park hook.
type parkHookKey struct{}

// WithParkHook returns a copy of ctx that carries hook, the scheduler's side of StartPark. hook
// must be safe for concurrent use, and the function it returns is called exactly once.
func WithParkHook(ctx context.Context, hook func() (resume func())) context.Context {
	return context.WithValue(ctx, parkHookKey{}, hook)
}

// StartPark tells ctx's park hook, if it has one (WithParkHook), that the caller is about to
// wait for a call that another caller makes on its behalf, one it joined (a client that merges
// the calls of several documents into one request), and returns the function to call when the
// wait is over, and whether ctx has a park hook. A scheduler lets another job run on the
// caller's place meanwhile, as it does for StartWait, but the caller takes no turn to call, and
// its time does not count against its deadline: the call's maker answers for that. Without a
// park hook the caller should make its own call: merging calls is for a scheduler that bounds
// the calls in flight (StartWait) and can park the others.
func StartPark(ctx context.Context) (resume func(), ok bool) {
	if hook, ok := ctx.Value(parkHookKey{}).(func() func()); ok && hook != nil {
		if resume := hook(); resume != nil {
			return resume, true
		}
		return func() {}, true
	}
	return func() {}, false
}

// CanPark reports whether ctx has a park hook (WithParkHook).
func CanPark(ctx context.Context) bool {
	hook, ok := ctx.Value(parkHookKey{}).(func() func())
	return ok && hook != nil
}

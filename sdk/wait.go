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

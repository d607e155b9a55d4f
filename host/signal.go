package host

import (
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// CloseOnSignal closes h when the process receives one of sigs (os.Interrupt and
// syscall.SIGTERM when none are given), then stops listening and raises the same signal
// again, so that the program ends the way the signal asks (on Unix, killed by it) unless
// other code also listens for it. The returned stop undoes CloseOnSignal; it does not close h.
//
// Use it in programs that do not thread a context to every call. A program that does can
// instead cancel its context on the signal (signal.NotifyContext) and defer h.Close().
func CloseOnSignal(h *Host, sigs ...os.Signal) (stop func()) {
	if len(sigs) == 0 {
		sigs = []os.Signal{os.Interrupt, syscall.SIGTERM}
	}
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, sigs...)
	done := make(chan struct{})
	var once sync.Once
	stop = func() { once.Do(func() { close(done) }) }
	go func() {
		select {
		case sig := <-ch:
			h.opts.Logger.Info("closing plugins on signal", "signal", sig.String())
			h.Close()
			signal.Stop(ch)
			raise(sig)
		case <-done:
			signal.Stop(ch)
		}
	}()
	return stop
}

package pluginserver

import (
	"context"
	"sync"

	"google.golang.org/grpc/metadata"

	"github.com/chunkkit/chunkkit/sdk/plugin"
)

// calls makes the requests of one host call take their turn: the host sends a large call as
// several requests, up to two in flight, each carrying the call's ID in the
// plugin.CallMetadata header, so that the transfer and decoding of one overlap the counting of
// the one before. Those requests are counted one at a time, as the call would have been, so a
// call uses one thread of the plugin's; requests of different calls, or without the header,
// run at once as before.
type calls struct {
	mu    sync.Mutex
	turns map[string]*turn
}

type turn struct {
	mu   sync.Mutex
	refs int // requests of the call holding or waiting for mu
}

// hold waits for the turn of ctx's call, if the request belongs to one, and returns the
// function that ends it.
func (c *calls) hold(ctx context.Context) (done func()) {
	if c == nil {
		return func() {}
	}
	md, _ := metadata.FromIncomingContext(ctx)
	ids := md.Get(plugin.CallMetadata)
	if len(ids) != 1 || ids[0] == "" {
		return func() {}
	}
	id := ids[0]
	c.mu.Lock()
	if c.turns == nil {
		c.turns = map[string]*turn{}
	}
	t := c.turns[id]
	if t == nil {
		t = &turn{}
		c.turns[id] = t
	}
	t.refs++
	c.mu.Unlock()
	t.mu.Lock()
	return func() {
		t.mu.Unlock()
		c.mu.Lock()
		if t.refs--; t.refs == 0 {
			delete(c.turns, id)
		}
		c.mu.Unlock()
	}
}

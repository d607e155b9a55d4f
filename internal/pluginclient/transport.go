package pluginclient

import (
	"google.golang.org/grpc"
	"google.golang.org/grpc/experimental"

	"github.com/chunkkit/chunkkit/internal/protocol/codec"
)

// Flow control and buffers of the connection to a plugin, the same as the plugin side's
// (internal/pluginserver.ServerOptions). gRPC's defaults suit the network: a 64 KiB initial
// window that grows with its bandwidth-delay estimate, and 32 KiB socket buffers. Between two
// processes on one machine a 3 MiB request then waits on dozens of window updates, each a wake-up
// of the other process. A window as large as a batch lets a request travel at once; static
// windows also turn the estimate's pings off.
const (
	streamWindow = 16 << 20 // above plugin.BatchBytes and a Boundaries answer to it
	connWindow   = 64 << 20 // several requests in flight (-j N) share the connection
	socketBuffer = 256 << 10
)

// DialOptions returns the gRPC dial options a host adds to go-plugin's
// (ClientConfig.GRPCDialOptions): large static flow-control windows and socket buffers, and
// internal/protocol/codec's codec and buffer pool, which do not clear every buffer they reuse.
func DialOptions() []grpc.DialOption {
	return []grpc.DialOption{
		grpc.WithDefaultCallOptions(grpc.ForceCodecV2(codec.Codec{})),
		experimental.WithBufferPool(codec.BufferPool()),
		grpc.WithInitialWindowSize(streamWindow),
		grpc.WithInitialConnWindowSize(connWindow),
		grpc.WithReadBufferSize(socketBuffer),
		grpc.WithWriteBufferSize(socketBuffer),
	}
}

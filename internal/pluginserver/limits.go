package pluginserver

import (
	"math"

	"google.golang.org/grpc"
	"google.golang.org/grpc/experimental"

	"github.com/chunkkit/chunkkit/internal/protocol/codec"
	"github.com/chunkkit/chunkkit/sdk/plugin"
)

// Flow control and buffers, as the host's (internal/pluginclient.DialOptions, which says why).
const (
	streamWindow = 16 << 20
	connWindow   = 64 << 20
	socketBuffer = 256 << 10
)

// ServerOptions returns the gRPC server options every chunkkit plugin uses: receive up to
// plugin.MaxMessageBytes, send up to what gRPC allows (a Boundaries answer can be several times
// its request's size), large static flow-control windows and socket buffers, and
// internal/protocol/codec's codec and buffer pool.
func ServerOptions() []grpc.ServerOption {
	return []grpc.ServerOption{
		grpc.ForceServerCodecV2(codec.Codec{}),
		experimental.BufferPool(codec.BufferPool()),
		grpc.MaxRecvMsgSize(plugin.MaxMessageBytes),
		grpc.MaxSendMsgSize(math.MaxInt32),
		grpc.InitialWindowSize(streamWindow),
		grpc.InitialConnWindowSize(connWindow),
		grpc.ReadBufferSize(socketBuffer),
		grpc.WriteBufferSize(socketBuffer),
	}
}

// NewGRPCServer is a go-plugin ServeConfig.GRPCServer function: a gRPC server with opts (go-plugin
// passes its TLS options) and ServerOptions. go-plugin's DefaultGRPCServer keeps gRPC's 4 MiB
// receive limit.
func NewGRPCServer(opts []grpc.ServerOption) *grpc.Server {
	return grpc.NewServer(append(opts, ServerOptions()...)...)
}

package pluginrpc

import (
	"math"

	"google.golang.org/grpc"
)

// MaxMessageBytes is the largest request a chunkkit plugin accepts: 64 MiB. The host never
// sends a larger one; a single text too large to fit is refused on the host with an error
// matching sdk.ErrInvalidInput. Plugins in other languages must raise their gRPC receive limit
// to at least this (most default to 4 MiB).
const MaxMessageBytes = 64 << 20

// BatchBytes is the size a host keeps each request under when it splits a large batch: 3 MiB,
// below gRPC's common 4 MiB default, so that a plugin that forgot to raise its limit still
// serves everything but single texts above it. A single text larger than BatchBytes travels
// alone in its own request.
const BatchBytes = 3 << 20

// ServerOptions returns the gRPC server options every chunkkit plugin uses: receive up to
// MaxMessageBytes, send up to what gRPC allows (a Boundaries answer can be several times its
// request's size).
func ServerOptions() []grpc.ServerOption {
	return []grpc.ServerOption{
		grpc.MaxRecvMsgSize(MaxMessageBytes),
		grpc.MaxSendMsgSize(math.MaxInt32),
	}
}

// NewGRPCServer is a go-plugin ServeConfig.GRPCServer function: a gRPC server with opts (go-plugin
// passes its TLS options) and ServerOptions. go-plugin's DefaultGRPCServer keeps gRPC's 4 MiB
// receive limit.
func NewGRPCServer(opts []grpc.ServerOption) *grpc.Server {
	return grpc.NewServer(append(opts, ServerOptions()...)...)
}

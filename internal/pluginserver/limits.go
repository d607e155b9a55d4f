package pluginserver

import (
	"math"

	"google.golang.org/grpc"

	"github.com/chunkkit/chunkkit/sdk/plugin"
)

// ServerOptions returns the gRPC server options every chunkkit plugin uses: receive up to
// plugin.MaxMessageBytes, send up to what gRPC allows (a Boundaries answer can be several times
// its request's size).
func ServerOptions() []grpc.ServerOption {
	return []grpc.ServerOption{
		grpc.MaxRecvMsgSize(plugin.MaxMessageBytes),
		grpc.MaxSendMsgSize(math.MaxInt32),
	}
}

// NewGRPCServer is a go-plugin ServeConfig.GRPCServer function: a gRPC server with opts (go-plugin
// passes its TLS options) and ServerOptions. go-plugin's DefaultGRPCServer keeps gRPC's 4 MiB
// receive limit.
func NewGRPCServer(opts []grpc.ServerOption) *grpc.Server {
	return grpc.NewServer(append(opts, ServerOptions()...)...)
}

// Package codec is the gRPC codec both ends of a plugin connection use: protobuf, as gRPC's
// default codec encodes it (the same bytes on the wire, the same "proto" content subtype), with
// its buffers from a pool that does not clear them. gRPC's default pool clears every buffer it
// hands out, across its whole capacity, and its tiers jump from 32 KiB to 1 MiB: a 300 KB
// request then clears 1 MiB on the host to marshal it and again on the plugin to decode it. A
// buffer here is always overwritten before it is read, so clearing it buys nothing.
package codec

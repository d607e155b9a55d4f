package codec

import (
	"fmt"
	"math/bits"
	"sync"

	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/proto"
)

// Name is the codec's name, gRPC's for protobuf, so the content subtype on the wire does not
// change.
const Name = "proto"

// Codec marshals and unmarshals protobuf messages with buffers of BufferPool. The zero value is ready to use,
// and it is safe for concurrent use.
type Codec struct{}

var _ encoding.CodecV2 = Codec{}

// Name returns Name.
func (Codec) Name() string { return Name }

// Marshal returns the wire form of v, a proto.Message, in one buffer of BufferPool's that gRPC
// frees once it has been written (a small message in a buffer of its own, as gRPC's codec does).
func (Codec) Marshal(v any) (mem.BufferSlice, error) {
	m, ok := v.(proto.Message)
	if !ok {
		return nil, fmt.Errorf("codec: cannot marshal %T: not a proto.Message", v)
	}
	size := proto.Size(m)
	if mem.IsBelowBufferPoolingThreshold(size) {
		b, err := proto.MarshalOptions{UseCachedSize: true}.Marshal(m)
		if err != nil {
			return nil, err
		}
		return mem.BufferSlice{mem.SliceBuffer(b)}, nil
	}
	buf := pool.Get(size)
	// UseCachedSize: the size was just computed, and the message does not change meanwhile.
	out, err := proto.MarshalOptions{UseCachedSize: true}.MarshalAppend((*buf)[:0], m)
	if err != nil {
		pool.Put(buf)
		return nil, err
	}
	*buf = out
	return mem.BufferSlice{mem.NewBuffer(buf, pool)}, nil
}

// Unmarshal decodes data into v, a proto.Message. The message owns what it decodes (protobuf
// copies bytes fields), so data's buffers are free for reuse when it returns.
func (Codec) Unmarshal(data mem.BufferSlice, v any) error {
	m, ok := v.(proto.Message)
	if !ok {
		return fmt.Errorf("codec: cannot unmarshal into %T: not a proto.Message", v)
	}
	buf := data.MaterializeToBuffer(pool)
	defer buf.Free()
	return proto.Unmarshal(buf.ReadOnlyData(), m)
}

// pool is the process's one BufferPool, shared by every connection as gRPC's default is.
var pool = newTiered(12, 26)

// BufferPool returns a mem.BufferPool of power-of-two tiers from 4 KiB to 64 MiB whose buffers
// come back uncleared; a larger buffer is allocated and dropped. Every user of a buffer writes
// it before reading it, as gRPC's transport and Codec do. Give it to gRPC's transport with
// experimental.WithBufferPool and experimental.BufferPool.
func BufferPool() mem.BufferPool { return pool }

// tiered keeps buffers of capacity 1<<e in tier e-lo.
type tiered struct {
	lo, hi int
	tiers  []sync.Pool
}

func newTiered(lo, hi int) *tiered {
	return &tiered{lo: lo, hi: hi, tiers: make([]sync.Pool, hi-lo+1)}
}

// tier returns the exponent of the smallest tier that holds size bytes.
func (p *tiered) tier(size int) int {
	return max(p.lo, bits.Len(uint(size-1)))
}

func (p *tiered) Get(size int) *[]byte {
	e := p.tier(size)
	if size <= 0 || e > p.hi {
		b := make([]byte, max(size, 0))
		return &b
	}
	if b, ok := p.tiers[e-p.lo].Get().(*[]byte); ok {
		*b = (*b)[:size]
		return b
	}
	b := make([]byte, size, 1<<e)
	return &b
}

func (p *tiered) Put(b *[]byte) {
	c := cap(*b)
	if c == 0 || c&(c-1) != 0 {
		return // not one of the tiers' buffers
	}
	e := bits.Len(uint(c)) - 1
	if e < p.lo || e > p.hi {
		return
	}
	p.tiers[e-p.lo].Put(b)
}

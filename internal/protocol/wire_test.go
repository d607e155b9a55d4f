package protocol_test

import (
	"bytes"
	"fmt"
	"os"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/chunkkit/chunkkit/internal/protocol/commonv1"
	"github.com/chunkkit/chunkkit/internal/protocol/sentencev1"
	"github.com/chunkkit/chunkkit/internal/protocol/tokenizerv1"
)

// released is the descriptor set of protocol 1.0 as first released, when tokenizer.proto and
// sentence.proto each declared their own InfoRequest, InfoResponse and Ends (commit f7e905f):
//
//	protoc -I internal/protocol --include_imports --descriptor_set_out=... \
//		tokenizerv1/tokenizer.proto sentencev1/sentence.proto
//
// Plugins built from those files are in the field; every later .proto must stay wire
// compatible with them.
const released = "testdata/v1.0-f7e905f.binpb"

func loadReleased(t *testing.T) *protoregistry.Files {
	t.Helper()
	raw, err := os.ReadFile(released)
	if err != nil {
		t.Fatal(err)
	}
	var set descriptorpb.FileDescriptorSet
	if err := proto.Unmarshal(raw, &set); err != nil {
		t.Fatalf("%s: %v", released, err)
	}
	files, err := protodesc.NewFiles(&set)
	if err != nil {
		t.Fatalf("%s: %v", released, err)
	}
	return files
}

// TestEveryReleasedMethodIsServedWithTheSameWireShape checks, for every RPC of protocol 1.0,
// that the current .proto files have it under the same path (/package.Service/Method, which is
// what gRPC sends) with request and response messages of the same fields: same numbers, types,
// cardinality and encoding, recursively. Message names may differ (only fields travel), which
// is what lets InfoRequest, InfoResponse and Ends move into common.proto.
func TestEveryReleasedMethodIsServedWithTheSameWireShape(t *testing.T) {
	t.Parallel()
	old := loadReleased(t)
	methods := 0
	old.RangeFiles(func(f protoreflect.FileDescriptor) bool {
		for i := range f.Services().Len() {
			svc := f.Services().Get(i)
			d, err := protoregistry.GlobalFiles.FindDescriptorByName(svc.FullName())
			if err != nil {
				t.Errorf("service %s of protocol 1.0 is gone: %v", svc.FullName(), err)
				continue
			}
			cur, ok := d.(protoreflect.ServiceDescriptor)
			if !ok {
				t.Errorf("%s is now a %T, not a service", svc.FullName(), d)
				continue
			}
			for j := range svc.Methods().Len() {
				m := svc.Methods().Get(j)
				methods++
				t.Run(fmt.Sprintf("/%s/%s keeps its path and message shapes", svc.FullName(), m.Name()), func(t *testing.T) {
					c := cur.Methods().ByName(m.Name())
					if c == nil {
						t.Fatalf("method %s is gone", m.FullName())
					}
					if c.IsStreamingClient() != m.IsStreamingClient() || c.IsStreamingServer() != m.IsStreamingServer() {
						t.Errorf("streaming changed")
					}
					for _, e := range wireDiff(m.Input(), c.Input(), "request") {
						t.Error(e)
					}
					for _, e := range wireDiff(m.Output(), c.Output(), "response") {
						t.Error(e)
					}
				})
			}
		}
		return true
	})
	if methods != 5 {
		t.Errorf("protocol 1.0 has %d methods in %s, want 5 (Tokenizer: Info, Count, Boundaries; SentenceSplitter: Info, Split)", methods, released)
	}
}

// wireDiff lists the differences between two messages that change their encoding.
func wireDiff(old, cur protoreflect.MessageDescriptor, at string) []string {
	var out []string
	if old.Fields().Len() != cur.Fields().Len() {
		out = append(out, fmt.Sprintf("%s (%s → %s): %d fields, was %d", at, old.FullName(), cur.FullName(), cur.Fields().Len(), old.Fields().Len()))
	}
	for i := range old.Fields().Len() {
		of := old.Fields().Get(i)
		where := fmt.Sprintf("%s.%s (%d)", at, of.Name(), of.Number())
		cf := cur.Fields().ByNumber(of.Number())
		if cf == nil {
			out = append(out, where+": gone")
			continue
		}
		if cf.Kind() != of.Kind() || cf.Cardinality() != of.Cardinality() || cf.IsPacked() != of.IsPacked() || cf.IsMap() != of.IsMap() {
			out = append(out, fmt.Sprintf("%s: %v %v packed=%t, was %v %v packed=%t", where,
				cf.Cardinality(), cf.Kind(), cf.IsPacked(), of.Cardinality(), of.Kind(), of.IsPacked()))
			continue
		}
		if cf.Name() != of.Name() {
			// Not a wire change, but the JSON name and every generated accessor change with it.
			out = append(out, fmt.Sprintf("%s: renamed %s", where, cf.Name()))
		}
		if of.Message() != nil {
			out = append(out, wireDiff(of.Message(), cf.Message(), where)...)
		}
	}
	return out
}

// TestCurrentMessagesDecodeAsReleasedOnesAndBack encodes a full message of each kind with the
// current generated code, decodes it with protocol 1.0's descriptors (as a plugin built from
// the released files would), and checks that nothing is unknown to the old side and that it
// re-encodes to the same bytes; and the other way round.
func TestCurrentMessagesDecodeAsReleasedOnesAndBack(t *testing.T) {
	t.Parallel()
	old := loadReleased(t)
	ends := []*commonv1.Ends{{Ends: []int64{3, 3, 9}}, {}, {Ends: []int64{1 << 40}}}
	info := &commonv1.InfoResponse{Name: "tiktoken", Version: "1.2.0", Models: []string{"cl100k_base", "o200k_base"},
		ProtocolVersion: "1.0", Kinds: []string{"tokenizer", "sentence"}}
	tests := []struct {
		old string // the message's name in protocol 1.0
		msg proto.Message
	}{
		{"chunkkit.tokenizer.v1.InfoRequest", &commonv1.InfoRequest{}},
		{"chunkkit.tokenizer.v1.InfoResponse", info},
		{"chunkkit.sentence.v1.InfoResponse", info},
		{"chunkkit.tokenizer.v1.Ends", ends[0]},
		{"chunkkit.sentence.v1.Ends", ends[0]},
		{"chunkkit.tokenizer.v1.CountRequest", &tokenizerv1.CountRequest{Model: "cl100k_base", Texts: [][]byte{[]byte("héllo"), {0xff}, {}}}},
		{"chunkkit.tokenizer.v1.CountResponse", &tokenizerv1.CountResponse{Counts: []int64{0, 7, 1 << 33}}},
		{"chunkkit.tokenizer.v1.BoundariesResponse", &tokenizerv1.BoundariesResponse{Ends: ends}},
		{"chunkkit.sentence.v1.SplitRequest", &sentencev1.SplitRequest{Model: "punkt:en", Texts: [][]byte{[]byte("A. B.")}}},
		{"chunkkit.sentence.v1.SplitResponse", &sentencev1.SplitResponse{Ends: ends}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s as the released %s", tt.msg.ProtoReflect().Descriptor().FullName(), tt.old), func(t *testing.T) {
			t.Parallel()
			d, err := old.FindDescriptorByName(protoreflect.FullName(tt.old))
			if err != nil {
				t.Fatal(err)
			}
			det := proto.MarshalOptions{Deterministic: true}
			wire, err := det.Marshal(tt.msg)
			if err != nil {
				t.Fatal(err)
			}
			dyn := dynamicpb.NewMessage(d.(protoreflect.MessageDescriptor))
			if err := proto.Unmarshal(wire, dyn); err != nil {
				t.Fatalf("the released side cannot decode it: %v", err)
			}
			if unknown := unknownFields(dyn); unknown != "" {
				t.Errorf("the released side does not know %s", unknown)
			}
			again, err := det.Marshal(dyn)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(wire, again) {
				t.Errorf("the released side re-encodes it differently:\n now %x\nthen %x", wire, again)
			}
			back := tt.msg.ProtoReflect().New().Interface()
			if err := proto.Unmarshal(again, back); err != nil {
				t.Fatalf("the current side cannot decode the released encoding: %v", err)
			}
			if !proto.Equal(tt.msg, back) {
				t.Errorf("round trip through the released side changed the message:\n got %v\nwant %v", back, tt.msg)
			}
		})
	}
}

// unknownFields names the first field of m, or of a message in it, that m's descriptor did not
// know when it was decoded; "" when there is none.
func unknownFields(m protoreflect.Message) string {
	if len(m.GetUnknown()) > 0 {
		return fmt.Sprintf("fields in %s (%x)", m.Descriptor().FullName(), m.GetUnknown())
	}
	found := ""
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		if fd.Message() == nil {
			return true
		}
		if fd.IsList() {
			for i := range v.List().Len() {
				if found = unknownFields(v.List().Get(i).Message()); found != "" {
					return false
				}
			}
			return true
		}
		found = unknownFields(v.Message())
		return found == ""
	})
	return found
}

package protocol_test

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"testing"

	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/chunkkit/chunkkit/internal/pluginserver"
	"github.com/chunkkit/chunkkit/internal/protocol/commonv1"
	"github.com/chunkkit/chunkkit/internal/protocol/sentencev1"
	"github.com/chunkkit/chunkkit/internal/protocol/tokenizerv1"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/plugin"
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

// TestAReleasedClientTalksToTheCurrentServer is a client built from protocol 1.0's descriptors
// (dynamic messages of the released InfoRequest, CountRequest, ...) calling today's server
// shims over a real gRPC connection, as a plugin host built from the released files would.
func TestAReleasedClientTalksToTheCurrentServer(t *testing.T) {
	t.Parallel()
	old := loadReleased(t)
	lis := bufconn.Listen(1 << 20)
	srv := pluginserver.NewGRPCServer(nil)
	set := pluginserver.VersionedPlugins(pluginserver.Server{
		Name: "words", Version: "1.0.0",
		Counters:  plugin.MapOf(map[string]sdk.TokenCounter{"words": sdk.Words{}}),
		Splitters: plugin.MapOf(map[string]sdk.SentenceSplitter{"lines": lines{}}),
	})[plugin.ProtocolVersion]
	for _, p := range set {
		if err := p.(goplugin.GRPCPlugin).GRPCServer(nil, srv); err != nil {
			t.Fatal(err)
		}
	}
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	conn, err := grpc.NewClient("passthrough:///bufconn",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })

	// call invokes /service/method with the released request message set to fields, and
	// returns the released response message.
	call := func(t *testing.T, service, method string, fields map[string]any) *dynamicpb.Message {
		t.Helper()
		d, err := old.FindDescriptorByName(protoreflect.FullName(service))
		if err != nil {
			t.Fatal(err)
		}
		m := d.(protoreflect.ServiceDescriptor).Methods().ByName(protoreflect.Name(method))
		req := dynamicpb.NewMessage(m.Input())
		for name, v := range fields {
			fd := m.Input().Fields().ByName(protoreflect.Name(name))
			switch v := v.(type) {
			case string:
				req.Set(fd, protoreflect.ValueOfString(v))
			case [][]byte:
				list := req.Mutable(fd).List()
				for _, b := range v {
					list.Append(protoreflect.ValueOfBytes(b))
				}
			}
		}
		resp := dynamicpb.NewMessage(m.Output())
		if err := conn.Invoke(t.Context(), "/"+service+"/"+method, req, resp); err != nil {
			t.Fatalf("%s/%s: %v", service, method, err)
		}
		if u := unknownFields(resp); u != "" {
			t.Errorf("%s/%s: the released client does not know %s", service, method, u)
		}
		return resp
	}
	texts := [][]byte{[]byte("one two three"), {}, []byte("a\nb")}
	for _, service := range []string{"chunkkit.tokenizer.v1.Tokenizer", "chunkkit.sentence.v1.SentenceSplitter"} {
		t.Run(service+"/Info", func(t *testing.T) {
			t.Parallel()
			got := call(t, service, "Info", nil)
			if name := got.Get(got.Descriptor().Fields().ByName("name")).String(); name != "words" {
				t.Errorf("Info.name = %q, want words", name)
			}
			if kinds := got.Get(got.Descriptor().Fields().ByName("kinds")).List(); kinds.Len() != 2 {
				t.Errorf("Info.kinds has %d entries, want 2", kinds.Len())
			}
		})
	}
	t.Run("Count", func(t *testing.T) {
		t.Parallel()
		got := call(t, "chunkkit.tokenizer.v1.Tokenizer", "Count", map[string]any{"model": "words", "texts": texts})
		counts := got.Get(got.Descriptor().Fields().ByName("counts")).List()
		var list []int64
		for i := range counts.Len() {
			list = append(list, counts.Get(i).Int())
		}
		if fmt.Sprint(list) != "[3 0 2]" {
			t.Errorf("Count = %v, want [3 0 2]", list)
		}
	})
	ends := func(t *testing.T, got *dynamicpb.Message) string {
		t.Helper()
		var out []string
		list := got.Get(got.Descriptor().Fields().ByName("ends")).List()
		for i := range list.Len() {
			e := list.Get(i).Message()
			offs := e.Get(e.Descriptor().Fields().ByName("ends")).List()
			var o []int64
			for j := range offs.Len() {
				o = append(o, offs.Get(j).Int())
			}
			out = append(out, fmt.Sprint(o))
		}
		return fmt.Sprint(out)
	}
	t.Run("Boundaries", func(t *testing.T) {
		t.Parallel()
		got := call(t, "chunkkit.tokenizer.v1.Tokenizer", "Boundaries", map[string]any{"model": "words", "texts": texts})
		if s := ends(t, got); s != "[[3 7 13] [] [1 3]]" {
			t.Errorf("Boundaries = %s, want [[3 7 13] [] [1 3]]", s)
		}
	})
	t.Run("Split", func(t *testing.T) {
		t.Parallel()
		got := call(t, "chunkkit.sentence.v1.SentenceSplitter", "Split", map[string]any{"texts": texts})
		if s := ends(t, got); s != "[[13] [] [2 3]]" {
			t.Errorf("Split = %s, want [[13] [] [2 3]]", s)
		}
	})
}

// lines is a sentence splitter for the test: a sentence ends after each '\n' and at the end.
type lines struct{}

func (lines) Split(_ context.Context, texts []string) ([][]int, error) {
	out := make([][]int, len(texts))
	for i, t := range texts {
		for j := range len(t) {
			if t[j] == '\n' {
				out[i] = append(out[i], j+1)
			}
		}
		if n := len(out[i]); len(t) > 0 && (n == 0 || out[i][n-1] != len(t)) {
			out[i] = append(out[i], len(t))
		}
	}
	return out, nil
}

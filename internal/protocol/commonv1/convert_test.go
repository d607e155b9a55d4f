package commonv1

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"google.golang.org/protobuf/testing/protocmp"

	"github.com/chunkkit/chunkkit/sdk/plugin"
)

func TestEndsRoundTrip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		bounds [][]int
		wire   []*Ends
		back   [][]int
	}{
		{name: "no texts give no Ends", bounds: [][]int{}, wire: []*Ends{}, back: [][]int{}},
		{
			name:   "a text of zero tokens has an empty Ends and comes back nil",
			bounds: [][]int{{}, nil},
			wire:   []*Ends{{}, {}},
			back:   [][]int{nil, nil},
		},
		{
			name:   "offsets keep text order and token order",
			bounds: [][]int{{3, 7}, {5}, {1, 1, 4}},
			wire:   []*Ends{{Ends: []int64{3, 7}}, {Ends: []int64{5}}, {Ends: []int64{1, 1, 4}}},
			back:   [][]int{{3, 7}, {5}, {1, 1, 4}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			wire := NewEndsList(tt.bounds)
			if diff := cmp.Diff(tt.wire, wire, protocmp.Transform()); diff != "" {
				t.Errorf("NewEndsList(%v) (-want +got):\n%s", tt.bounds, diff)
			}
			back, err := EndsLists(wire)
			if err != nil {
				t.Fatalf("EndsLists: %v", err)
			}
			if diff := cmp.Diff(tt.back, back); diff != "" {
				t.Errorf("EndsLists(NewEndsList(x)) (-want +got):\n%s", diff)
			}
		})
	}
}

func TestEndsListsTreatsANilEndsAsNoTokens(t *testing.T) {
	t.Parallel()
	got, err := EndsLists([]*Ends{nil, {Ends: []int64{2}}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([][]int{nil, {2}}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestInfoRoundTrip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		info plugin.Info
	}{
		{name: "a full Info comes back the same", info: plugin.Info{Name: "tiktoken", Version: "1.2.0",
			Models: []string{"cl100k_base"}, ProtocolVersion: "1.0", Kinds: []plugin.Kind{plugin.KindTokenizer, plugin.KindSentence}}},
		{name: "an unknown kind from a newer plugin is kept", info: plugin.Info{Name: "x", Kinds: []plugin.Kind{"embedder"}}},
		{name: "an empty Info stays empty", info: plugin.Info{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tt.info, InfoFrom(NewInfoResponse(tt.info)), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("InfoFrom(NewInfoResponse(x)) (-want +got):\n%s", diff)
			}
		})
	}
}

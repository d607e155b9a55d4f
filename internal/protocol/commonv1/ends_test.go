package commonv1

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/testing/protocmp"
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

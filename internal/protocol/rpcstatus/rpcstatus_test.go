package rpcstatus

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/chunkkit/chunkkit/sdk"
)

func TestEncode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		err  error
		code codes.Code
		msg  string // "" means err.Error()
	}{
		{name: "invalid input becomes InvalidArgument", err: fmt.Errorf("count: %w", sdk.ErrInvalidInput), code: codes.InvalidArgument},
		{name: "a typed InputError becomes InvalidArgument", err: &sdk.InputError{Document: "d", Block: 2, Offset: -1, Problem: "bad"}, code: codes.InvalidArgument},
		{name: "invalid configuration becomes FailedPrecondition", err: fmt.Errorf("load: %w", sdk.ErrInvalidConfig), code: codes.FailedPrecondition},
		{name: "unsupported becomes Unimplemented", err: fmt.Errorf("boundaries: %w", sdk.ErrUnsupported), code: codes.Unimplemented},
		{name: "unavailable becomes Unavailable", err: sdk.ErrUnavailable, code: codes.Unavailable},
		{name: "bad response becomes Internal", err: fmt.Errorf("inner: %w", sdk.ErrBadResponse), code: codes.Internal},
		{name: "a cancelled context becomes Canceled", err: fmt.Errorf("count: %w", context.Canceled), code: codes.Canceled},
		{name: "an expired deadline becomes DeadlineExceeded", err: context.DeadlineExceeded, code: codes.DeadlineExceeded},
		{name: "a context error wins over a sentinel in the same chain", err: errors.Join(sdk.ErrInvalidInput, context.Canceled), code: codes.Canceled},
		{name: "a status error keeps its code", err: status.Error(codes.PermissionDenied, "no"), code: codes.PermissionDenied, msg: "no"},
		{name: "any other error becomes Unknown", err: errors.New("boom"), code: codes.Unknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, ok := status.FromError(Encode(tt.err))
			if !ok {
				t.Fatalf("Encode(%v) is not a status error", tt.err)
			}
			if s.Code() != tt.code {
				t.Errorf("Encode(%v) code = %v, want %v", tt.err, s.Code(), tt.code)
			}
			want := tt.msg
			if want == "" {
				want = tt.err.Error()
			}
			if s.Message() != want {
				t.Errorf("Encode(%v) message = %q, want %q", tt.err, s.Message(), want)
			}
		})
	}
}

func TestEncodeNilIsNil(t *testing.T) {
	t.Parallel()
	if err := Encode(nil); err != nil {
		t.Errorf("Encode(nil) = %v, want nil", err)
	}
	if err := EncodeUnknownModel(nil); err != nil {
		t.Errorf("EncodeUnknownModel(nil) = %v, want nil", err)
	}
	if err := Decode(nil); err != nil {
		t.Errorf("Decode(nil) = %v, want nil", err)
	}
}

func TestEncodeUnknownModel(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		err  error
		code codes.Code
	}{
		{name: "an unsupported model becomes NotFound", err: fmt.Errorf("model %q: %w", "x", sdk.ErrUnsupported), code: codes.NotFound},
		{name: "a model that fails to load keeps its own code", err: fmt.Errorf("model: %w", sdk.ErrInvalidConfig), code: codes.FailedPrecondition},
		{name: "a cancelled load stays Canceled", err: errors.Join(sdk.ErrUnsupported, context.Canceled), code: codes.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := status.Code(EncodeUnknownModel(tt.err)); got != tt.code {
				t.Errorf("EncodeUnknownModel(%v) code = %v, want %v", tt.err, got, tt.code)
			}
		})
	}
}

func TestDecode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		code    codes.Code
		msg     string
		target  error // nil: matches no sentinel
		wantMsg string
	}{
		{name: "InvalidArgument matches ErrInvalidInput", code: codes.InvalidArgument, msg: "chunkkit: invalid input: text 3", target: sdk.ErrInvalidInput, wantMsg: "chunkkit: invalid input: text 3"},
		{name: "OutOfRange matches ErrInvalidInput", code: codes.OutOfRange, msg: "too long", target: sdk.ErrInvalidInput, wantMsg: "chunkkit: invalid input: too long"},
		{name: "ResourceExhausted from a size limit matches ErrInvalidInput", code: codes.ResourceExhausted, msg: "grpc: received message larger than max", target: sdk.ErrInvalidInput, wantMsg: "chunkkit: invalid input: grpc: received message larger than max"},
		{name: "FailedPrecondition matches ErrInvalidConfig", code: codes.FailedPrecondition, msg: "no vocabulary", target: sdk.ErrInvalidConfig, wantMsg: "chunkkit: invalid configuration: no vocabulary"},
		{name: "Unimplemented matches ErrUnsupported", code: codes.Unimplemented, msg: "unknown method Boundaries", target: sdk.ErrUnsupported, wantMsg: "chunkkit: unsupported: unknown method Boundaries"},
		{name: "NotFound for an unknown model matches ErrUnsupported", code: codes.NotFound, msg: "unknown model p50k", target: sdk.ErrUnsupported, wantMsg: "chunkkit: unsupported: unknown model p50k"},
		{name: "Unavailable matches ErrUnavailable", code: codes.Unavailable, msg: "EOF", target: sdk.ErrUnavailable, wantMsg: "chunkkit: unavailable: EOF"},
		{name: "Aborted matches ErrUnavailable", code: codes.Aborted, msg: "try again", target: sdk.ErrUnavailable, wantMsg: "chunkkit: unavailable: try again"},
		{name: "Internal matches ErrBadResponse", code: codes.Internal, msg: "cannot parse", target: sdk.ErrBadResponse, wantMsg: "chunkkit: bad response: cannot parse"},
		{name: "DataLoss matches ErrBadResponse", code: codes.DataLoss, msg: "truncated", target: sdk.ErrBadResponse, wantMsg: "chunkkit: bad response: truncated"},
		{name: "Canceled matches context.Canceled", code: codes.Canceled, msg: "context canceled", target: context.Canceled, wantMsg: "context canceled"},
		{name: "DeadlineExceeded matches context.DeadlineExceeded", code: codes.DeadlineExceeded, msg: "context deadline exceeded", target: context.DeadlineExceeded, wantMsg: "context deadline exceeded"},
		{name: "Unknown matches no sentinel and keeps its message", code: codes.Unknown, msg: "boom", wantMsg: "boom"},
		{name: "an empty message still says what happened", code: codes.PermissionDenied, wantMsg: "plugin error: code PermissionDenied"},
	}
	all := []error{sdk.ErrInvalidInput, sdk.ErrInvalidConfig, sdk.ErrUnsupported, sdk.ErrUnavailable, sdk.ErrBadResponse, context.Canceled, context.DeadlineExceeded}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := Decode(status.Error(tt.code, tt.msg))
			for _, s := range all {
				if got, want := errors.Is(err, s), s == tt.target; got != want {
					t.Errorf("errors.Is(Decode(%v %q), %v) = %t, want %t", tt.code, tt.msg, s, got, want)
				}
			}
			if err.Error() != tt.wantMsg {
				t.Errorf("Decode(%v %q).Error() = %q, want %q", tt.code, tt.msg, err.Error(), tt.wantMsg)
			}
			if got := status.Code(err); got != tt.code {
				t.Errorf("status.Code(Decode(...)) = %v, want %v", got, tt.code)
			}
		})
	}
}

func TestDecodeLeavesErrorsWithoutStatusAlone(t *testing.T) {
	t.Parallel()
	plain := errors.New("dial failed")
	if got := Decode(plain); got != plain {
		t.Errorf("Decode(%v) = %v, want the same error", plain, got)
	}
}

func TestSentinelsSurviveTheRoundTrip(t *testing.T) {
	t.Parallel()
	for _, s := range []error{sdk.ErrInvalidInput, sdk.ErrInvalidConfig, sdk.ErrUnsupported, sdk.ErrUnavailable, sdk.ErrBadResponse, context.Canceled, context.DeadlineExceeded} {
		t.Run(s.Error()+" survives Encode then Decode", func(t *testing.T) {
			t.Parallel()
			orig := fmt.Errorf("plugin step: %w", s)
			got := Decode(Encode(orig))
			if !errors.Is(got, s) {
				t.Errorf("errors.Is(Decode(Encode(%v)), %v) = false", orig, s)
			}
			if got.Error() != orig.Error() {
				t.Errorf("message = %q, want %q", got.Error(), orig.Error())
			}
		})
	}
}

func TestADecodedErrorReEncodesWithItsCode(t *testing.T) {
	t.Parallel()
	decoded := Decode(status.Error(codes.NotFound, "unknown model"))
	if got := status.Code(Encode(fmt.Errorf("forwarded: %w", decoded))); got != codes.Unimplemented {
		t.Errorf("re-encoded code = %v, want Unimplemented (the sentinel's code)", got)
	}
	if got := status.Code(Encode(Decode(status.Error(codes.PermissionDenied, "no")))); got != codes.PermissionDenied {
		t.Errorf("re-encoded code = %v, want PermissionDenied (no sentinel: the status's own code)", got)
	}
}

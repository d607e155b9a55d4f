package rpcstatus

import (
	"context"
	"errors"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/chunkkit/chunkkit/sdk"
)

// encodings assigns a gRPC code to each error a plugin may return, checked in order with
// errors.Is. Context errors come first: a call cut short is about the call, not the input.
var encodings = [...]struct {
	target error
	code   codes.Code
}{
	{context.Canceled, codes.Canceled},
	{context.DeadlineExceeded, codes.DeadlineExceeded},
	{sdk.ErrInvalidInput, codes.InvalidArgument},
	{sdk.ErrInvalidConfig, codes.FailedPrecondition},
	{sdk.ErrUnsupported, codes.Unimplemented},
	{sdk.ErrUnavailable, codes.Unavailable},
	{sdk.ErrBadResponse, codes.Internal},
}

// Encode returns err as a gRPC status error whose message is err.Error(). The code comes from
// the first of these that err matches with errors.Is: context.Canceled → Canceled,
// context.DeadlineExceeded → DeadlineExceeded, sdk.ErrInvalidInput → InvalidArgument,
// sdk.ErrInvalidConfig → FailedPrecondition, sdk.ErrUnsupported → Unimplemented,
// sdk.ErrUnavailable → Unavailable, sdk.ErrBadResponse → Internal. An error that matches none
// keeps the code of a gRPC status it carries, if any, and is Unknown otherwise. Encode(nil) is nil.
func Encode(err error) error {
	if err == nil {
		return nil
	}
	for _, e := range encodings {
		if errors.Is(err, e.target) {
			return status.Error(e.code, err.Error())
		}
	}
	if s, ok := status.FromError(err); ok {
		return s.Err()
	}
	return status.Error(codes.Unknown, err.Error())
}

// EncodeUnknownModel is Encode for the error of looking up the requested model: an error
// matching sdk.ErrUnsupported becomes NotFound, telling a host apart "no such model" from "no
// such RPC" (Unimplemented). Other errors are encoded as Encode does.
func EncodeUnknownModel(err error) error {
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) && errors.Is(err, sdk.ErrUnsupported) {
		return status.Error(codes.NotFound, err.Error())
	}
	return Encode(err)
}

// Decode returns the error a host reports for err, the error of a gRPC call. When err carries
// a gRPC status the result is an *Error that keeps the code and message and matches, with
// errors.Is, the sentinel for the code: InvalidArgument, OutOfRange and ResourceExhausted (a
// message over the plugin's size limit) → sdk.ErrInvalidInput; FailedPrecondition →
// sdk.ErrInvalidConfig; Unimplemented and NotFound (an unknown model) → sdk.ErrUnsupported;
// Unavailable and Aborted → sdk.ErrUnavailable; Internal and DataLoss → sdk.ErrBadResponse;
// Canceled → context.Canceled; DeadlineExceeded → context.DeadlineExceeded. Other codes, such
// as Unknown, match no sentinel. An error without a status is returned unchanged; Decode(nil)
// is nil.
func Decode(err error) error {
	if err == nil {
		return nil
	}
	s, ok := status.FromError(err)
	if !ok || s.Code() == codes.OK {
		return err
	}
	return &Error{Code: s.Code(), Message: s.Message(), sentinel: sentinel(s.Code())}
}

func sentinel(c codes.Code) error {
	switch c {
	case codes.InvalidArgument, codes.OutOfRange, codes.ResourceExhausted:
		return sdk.ErrInvalidInput
	case codes.FailedPrecondition:
		return sdk.ErrInvalidConfig
	case codes.Unimplemented, codes.NotFound:
		return sdk.ErrUnsupported
	case codes.Unavailable, codes.Aborted:
		return sdk.ErrUnavailable
	case codes.Internal, codes.DataLoss:
		return sdk.ErrBadResponse
	case codes.Canceled:
		return context.Canceled
	case codes.DeadlineExceeded:
		return context.DeadlineExceeded
	}
	return nil
}

// Error is a gRPC status received from a plugin. It unwraps to the sdk sentinel (or context
// error) that its code stands for, if any, so errors.Is works on it as on the plugin's own
// error.
type Error struct {
	// Code is the gRPC status code.
	Code codes.Code
	// Message is the status message, usually the plugin's err.Error().
	Message string

	sentinel error
}

// Error returns the message, prefixed with the sentinel's text when the message does not
// already contain it (as a plugin in another language may omit it).
func (e *Error) Error() string {
	switch {
	case e.sentinel == nil && e.Message == "":
		return "plugin error: code " + e.Code.String()
	case e.sentinel == nil:
		return e.Message
	case e.Message == "":
		return e.sentinel.Error()
	case strings.Contains(e.Message, e.sentinel.Error()):
		return e.Message
	}
	return e.sentinel.Error() + ": " + e.Message
}

// Unwrap returns the sentinel the code stands for, or nil.
func (e *Error) Unwrap() error { return e.sentinel }

// GRPCStatus returns the status, so status.FromError and Encode see the original code.
func (e *Error) GRPCStatus() *status.Status { return status.New(e.Code, e.Message) }

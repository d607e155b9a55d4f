// Package rpcstatus carries chunkkit's errors across the plugin boundary: Encode turns an
// error a plugin's implementation returned into a gRPC status with the code that
// docs/protocol.md assigns to its sdk sentinel, and Decode turns the status a host receives back
// into an error that matches the same sentinel with errors.Is. The message survives both ways.
package rpcstatus

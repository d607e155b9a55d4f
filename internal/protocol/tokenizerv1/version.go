package tokenizerv1

import "strconv"

// ProtocolVersion is the major version of tokenizer.proto. It is the go-plugin application
// protocol version negotiated in the handshake, and it must equal the "MAJOR" of the header line
// "// chunkkit tokenizer protocol version: MAJOR.MINOR" of tokenizer.proto (a test checks).
const ProtocolVersion = 1

// ProtocolMinor is the minor version of tokenizer.proto: it grows when an RPC or a field is
// added. It must equal the "MINOR" of the .proto's header line (a test checks).
const ProtocolMinor = 2

// Version returns the protocol version as "MAJOR.MINOR", the form of InfoResponse.protocol_version.
func Version() string {
	return strconv.Itoa(ProtocolVersion) + "." + strconv.Itoa(ProtocolMinor)
}

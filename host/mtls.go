package host

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"time"
)

// clientCert is the certificate a Host presents to every plugin it starts, in place of
// go-plugin's AutoMTLS, which makes a new ECDSA P-521 key and certificate for each start (about
// 3 ms, before the binary is even checked). A Host makes one, on its first start and at the same
// time as it checks the binary, and keeps it: the private key never leaves the host process
// (a plugin gets the certificate only, in PLUGIN_CLIENT_CERT), and each plugin still makes a key
// of its own, which go-plugin hands over in the handshake line. The key is ECDSA P-256: every
// TLS stack verifies it, and its signatures take microseconds where P-521's take a
// millisecond or more, on both sides of each handshake.
type clientCert struct {
	cert tls.Certificate
	pem  string // the certificate, PEM-encoded: PLUGIN_CLIENT_CERT
}

// newClientCert makes a key and a self-signed certificate shaped as go-plugin's AutoMTLS
// certificate is (docs/protocol.md §1): subject CN=localhost, O=HashiCorp, DNS name localhost,
// a CA, client and server auth, valid from 30 seconds ago for 30 years.
func newClientCert() (*clientCert, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("host: making the client key: %w", err)
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 128))
	if err != nil {
		return nil, fmt.Errorf("host: making the client certificate: %w", err)
	}
	now := time.Now()
	template := &x509.Certificate{
		Subject:               pkix.Name{CommonName: "localhost", Organization: []string{"HashiCorp"}},
		DNSNames:              []string{"localhost"},
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth, x509.ExtKeyUsageServerAuth},
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment | x509.KeyUsageKeyAgreement | x509.KeyUsageCertSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
		SerialNumber:          serial,
		NotBefore:             now.Add(-30 * time.Second),
		NotAfter:              now.Add(30 * 365 * 24 * time.Hour),
	}
	der, err := x509.CreateCertificate(rand.Reader, template, template, key.Public(), key)
	if err != nil {
		return nil, fmt.Errorf("host: making the client certificate: %w", err)
	}
	return &clientCert{
		cert: tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key},
		pem:  string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})),
	}, nil
}

// tlsConfig returns a new TLS configuration presenting c, as AutoMTLS makes one. go-plugin
// sets its RootCAs to the plugin's certificate from the handshake line, so every start needs a
// configuration of its own.
func (c *clientCert) tlsConfig() *tls.Config {
	return &tls.Config{
		Certificates: []tls.Certificate{c.cert},
		ClientAuth:   tls.RequireAndVerifyClientCert,
		MinVersion:   tls.VersionTLS12,
		ServerName:   "localhost",
	}
}

package host

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/x509"
	"encoding/pem"
	"slices"
	"testing"
	"time"
)

func TestTheClientCertificateIsShapedAsAutoMTLSMakesOne(t *testing.T) {
	t.Parallel()
	c, err := newClientCert()
	if err != nil {
		t.Fatal(err)
	}
	block, rest := pem.Decode([]byte(c.pem))
	if block == nil || block.Type != "CERTIFICATE" || len(rest) != 0 {
		t.Fatalf("PLUGIN_CLIENT_CERT is not one PEM certificate: %q", c.pem)
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	if cert.Subject.CommonName != "localhost" || !slices.Equal(cert.DNSNames, []string{"localhost"}) || !cert.IsCA {
		t.Errorf("certificate: CN %q, DNS names %q, CA %t; want localhost, [localhost], a CA", cert.Subject.CommonName, cert.DNSNames, cert.IsCA)
	}
	if !slices.Contains(cert.ExtKeyUsage, x509.ExtKeyUsageClientAuth) || !slices.Contains(cert.ExtKeyUsage, x509.ExtKeyUsageServerAuth) {
		t.Errorf("extended key usage %v, want client and server auth", cert.ExtKeyUsage)
	}
	if pub, ok := cert.PublicKey.(*ecdsa.PublicKey); !ok || pub.Curve != elliptic.P256() {
		t.Errorf("public key %T, want ECDSA P-256", cert.PublicKey)
	}
	if now := time.Now(); now.Before(cert.NotBefore) || now.After(cert.NotAfter) {
		t.Errorf("valid from %v to %v, not now", cert.NotBefore, cert.NotAfter)
	}
	// A plugin trusts the certificate as its own root, as go-plugin's server does.
	roots := x509.NewCertPool()
	roots.AddCert(cert)
	if _, err := cert.Verify(x509.VerifyOptions{Roots: roots, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}); err != nil {
		t.Errorf("the certificate does not verify against itself as a client certificate: %v", err)
	}
	a, b := c.tlsConfig(), c.tlsConfig()
	if a == b || len(a.Certificates) != 1 || a.ServerName != "localhost" {
		t.Errorf("tlsConfig: a shared or incomplete configuration (%p, %p, %d certificates, server name %q)", a, b, len(a.Certificates), a.ServerName)
	}
}

func TestAHostMakesOneClientCertificate(t *testing.T) {
	t.Parallel()
	sp := &spawner{}
	a, err := sp.clientCert()
	if err != nil {
		t.Fatal(err)
	}
	b, err := sp.clientCert()
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Error("a second start made a second certificate")
	}
	other, err := (&spawner{}).clientCert()
	if err != nil {
		t.Fatal(err)
	}
	if other.pem == a.pem {
		t.Error("two hosts share a certificate")
	}
}

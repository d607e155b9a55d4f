// Package testbin builds, for the tests of the beam module, the chunkkit command and the
// plugins the tests run, in the root module (with its go.mod, as users build them), into a
// temporary folder with their manifest.
package testbin

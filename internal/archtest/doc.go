// Package archtest holds no code: its tests keep the dependency rules of DESIGN.md ("Layout")
// by asking the go command what every package of the module imports. The rules are a table
// keyed by package path prefix, so a new package is covered the moment it exists.
package archtest

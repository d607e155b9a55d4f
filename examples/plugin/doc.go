// Command plugin is a complete chunkkit tokenizer plugin: it serves sdk.Words as the model
// "words" and sdk.Runes as "runes". Build it, list it in a manifest (chunkkit.plugins.json)
// and name it in a spec such as "plugin:example:words"; docs/plugins.md walks through it.
//
// Run by hand it explains that it is a plugin and exits with status 1: only a chunkkit host,
// which passes the handshake in the environment, can start it.
package main

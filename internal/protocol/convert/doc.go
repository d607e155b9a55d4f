// Package convert turns sdk-shaped values (texts as strings, counts and offsets as int) into
// their wire form (bytes and int64) and back. It is shared by the versioned protocol packages,
// which add converters for their own message types.
package convert

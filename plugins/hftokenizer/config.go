package hftokenizer

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/chunkkit/chunkkit/sdk"
)

// ErrUnsupportedFeature marks a tokenizer.json that uses something this package cannot
// reproduce exactly; it also matches sdk.ErrUnsupported.
var ErrUnsupportedFeature = fmt.Errorf("%w: tokenizer.json feature not supported", sdk.ErrUnsupported)

// unsupported names the feature at path that the plugin refuses.
func unsupported(path, format string, args ...any) error {
	return fmt.Errorf("%s: %s: %w", path, fmt.Sprintf(format, args...), ErrUnsupportedFeature)
}

// invalid reports a malformed component at path.
func invalid(path, format string, args ...any) error {
	return fmt.Errorf("%s: %s: %w", path, fmt.Sprintf(format, args...), sdk.ErrInvalidConfig)
}

func indexPath(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// obj is one component of a tokenizer.json as encoding/json decodes it.
type obj map[string]any

// asObj converts a decoded JSON value to obj; nil for JSON null.
func asObj(v any, path string) (obj, error) {
	switch v := v.(type) {
	case nil:
		return nil, nil
	case map[string]any:
		return obj(v), nil
	}
	return nil, invalid(path, "want an object, got %T", v)
}

func (o obj) typ(path string) (string, error) {
	t, ok := o["type"].(string)
	if !ok {
		return "", invalid(path, "missing \"type\"")
	}
	return t, nil
}

// objects returns the array of objects under key.
func (o obj) objects(path, key string) ([]obj, error) {
	raw, ok := o[key].([]any)
	if !ok {
		return nil, invalid(path, "%q is not an array", key)
	}
	out := make([]obj, len(raw))
	for i, v := range raw {
		item, err := asObj(v, indexPath(path+"."+key, i))
		if err != nil {
			return nil, err
		}
		if item == nil {
			return nil, invalid(indexPath(path+"."+key, i), "null")
		}
		out[i] = item
	}
	return out, nil
}

// boolean returns the boolean under key; def when absent or null.
func (o obj) boolean(path, key string, def bool) (bool, error) {
	switch v := o[key].(type) {
	case nil:
		return def, nil
	case bool:
		return v, nil
	}
	return false, invalid(path, "%q is not a boolean", key)
}

// str returns the string under key.
func (o obj) str(path, key string) (string, error) {
	s, ok := o[key].(string)
	if !ok {
		return "", invalid(path, "%q is not a string", key)
	}
	return s, nil
}

// optStr returns the string under key, or def when absent or null.
func (o obj) optStr(path, key, def string) (string, error) {
	switch v := o[key].(type) {
	case nil:
		return def, nil
	case string:
		return v, nil
	}
	return "", invalid(path, "%q is not a string", key)
}

// number returns the number under key; def when absent or null.
func (o obj) number(path, key string, def float64) (float64, error) {
	switch v := o[key].(type) {
	case nil:
		return def, nil
	case json.Number:
		f, err := v.Float64()
		if err != nil {
			return 0, invalid(path, "%q: %v", key, err)
		}
		return f, nil
	case float64:
		return v, nil
	}
	return 0, invalid(path, "%q is not a number", key)
}

// asID returns the JSON number v as a token id: an integer in [0, 2^31).
func asID(v any) (int32, bool) {
	var f float64
	switch v := v.(type) {
	case json.Number:
		n, err := strconv.ParseInt(string(v), 10, 32)
		return int32(n), err == nil && n >= 0
	case float64:
		f = v
	default:
		return 0, false
	}
	return int32(f), f >= 0 && f == float64(int32(f))
}

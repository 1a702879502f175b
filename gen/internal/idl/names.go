package idl

import (
	"strings"
	"unicode"
)

// The names foryc's Go generator gives (apache/fory c8bf233,
// compiler/fory_compiler/generators/base.py and go.py), so that a type,
// field or constant keeps the name a foryc peer's Go code has.

// pascal is foryc's to_pascal_case: snake_case and UPPER_SNAKE_CASE word by
// word (each word capitalized, the rest lowercased), a single ALLCAPS word
// capitalized, anything else with its first letter upper-cased.
func pascal(name string) string {
	if name == "" {
		return name
	}
	if strings.Contains(name, "_") {
		var b strings.Builder
		for _, w := range strings.Split(strings.ToLower(name), "_") {
			b.WriteString(capitalize(w))
		}
		return b.String()
	}
	if isUpper(name) {
		return capitalize(strings.ToLower(name))
	}
	return strings.ToUpper(name[:1]) + name[1:]
}

// capitalize is Python's str.capitalize on an already lowercased word.
func capitalize(w string) string {
	if w == "" {
		return w
	}
	return strings.ToUpper(w[:1]) + w[1:]
}

// isUpper is Python's str.isupper: at least one cased letter and no
// lowercase one.
func isUpper(s string) bool {
	cased := false
	for _, r := range s {
		if unicode.IsLower(r) {
			return false
		}
		if unicode.IsUpper(r) {
			cased = true
		}
	}
	return cased
}

// snake is foryc's to_snake_case: an underscore before a capital that
// follows a lowercase letter or precedes one (HTTPStatus → http_status).
func snake(name string) string {
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c >= 'A' && c <= 'Z' {
			if i > 0 {
				prevLower := name[i-1] >= 'a' && name[i-1] <= 'z'
				nextLower := i+1 < len(name) && name[i+1] >= 'a' && name[i+1] <= 'z'
				if prevLower || nextLower {
					b.WriteByte('_')
				}
			}
			b.WriteByte(c + 'a' - 'A')
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// stripEnumPrefix is foryc's strip_enum_prefix: DEVICE_TIER_UNKNOWN of
// DeviceTier is UNKNOWN, unless what is left does not start with a letter.
func stripEnumPrefix(enum, value string) string {
	prefix := strings.ToUpper(snake(enum)) + "_"
	if !strings.HasPrefix(value, prefix) {
		return value
	}
	rest := value[len(prefix):]
	if rest == "" || !(rest[0] >= 'a' && rest[0] <= 'z' || rest[0] >= 'A' && rest[0] <= 'Z') {
		return value
	}
	return rest
}

// murmur3 is MurmurHash3 x86 32-bit with seed 0, the hash foryc computes
// auto type ids with (compiler/fory_compiler/ir/type_id.py).
func murmur3(data []byte) uint32 {
	const c1, c2 = 0xcc9e2d51, 0x1b873593
	var h uint32
	n := len(data) / 4
	for i := 0; i < n; i++ {
		k := uint32(data[4*i]) | uint32(data[4*i+1])<<8 | uint32(data[4*i+2])<<16 | uint32(data[4*i+3])<<24
		k *= c1
		k = k<<15 | k>>17
		k *= c2
		h ^= k
		h = h<<13 | h>>19
		h = h*5 + 0xe6546b64
	}
	tail := data[4*n:]
	var k uint32
	switch len(tail) {
	case 3:
		k ^= uint32(tail[2]) << 16
		fallthrough
	case 2:
		k ^= uint32(tail[1]) << 8
		fallthrough
	case 1:
		k ^= uint32(tail[0])
		k *= c1
		k = k<<15 | k>>17
		k *= c2
		h ^= k
	}
	h ^= uint32(len(data))
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return h
}

package serializer

// Set is Fory's SET, like official Fory Go's fory.Set: a Go map of its
// elements to struct{}. A field of type Set[T] is written as a SET of T
// (type id 23), with its elements in Go's map order, so a set of more than
// one element is not byte-stable. A nil set is written as an empty one and
// decodes as empty, as official Go does, unless the field is tagged
// `fory:"nullable"`.
type Set[T comparable] map[T]struct{}

// NewSet returns a set holding values.
func NewSet[T comparable](values ...T) Set[T] {
	s := make(Set[T], len(values))
	s.Add(values...)
	return s
}

// Add puts values in s.
func (s Set[T]) Add(values ...T) {
	for _, v := range values {
		s[v] = struct{}{}
	}
}

// Remove takes v out of s.
func (s Set[T]) Remove(v T) { delete(s, v) }

// Contains reports whether v is in s.
func (s Set[T]) Contains(v T) bool {
	_, ok := s[v]
	return ok
}

// Len returns the number of elements.
func (s Set[T]) Len() int { return len(s) }

// Values returns the elements, in no particular order.
func (s Set[T]) Values() []T {
	out := make([]T, 0, len(s))
	for v := range s {
		out = append(out, v)
	}
	return out
}

// Clear removes every element.
func (s Set[T]) Clear() { clear(s) }

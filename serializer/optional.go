package serializer

// Optional is a value that may be absent, like official Fory Go's
// optional.Optional: a field of type Optional[T] is written as a nullable T
// (a null flag, then the value), with nullable=1 in the schema. T is a
// boolean, number, string or enum.
type Optional[T any] struct {
	value T
	has   bool
}

// Some returns an Optional holding v.
func Some[T any](v T) Optional[T] { return Optional[T]{value: v, has: true} }

// None returns an empty Optional.
func None[T any]() Optional[T] { return Optional[T]{} }

// Get returns the value and whether there is one.
func (o Optional[T]) Get() (T, bool) { return o.value, o.has }

// IsSome reports whether o holds a value.
func (o Optional[T]) IsSome() bool { return o.has }

// IsNone reports whether o is empty.
func (o Optional[T]) IsNone() bool { return !o.has }

// Unwrap returns the value; it panics when o is empty.
func (o Optional[T]) Unwrap() T {
	if !o.has {
		panic("serializer: Unwrap of an empty Optional")
	}
	return o.value
}

// UnwrapOr returns the value, or def when o is empty.
func (o Optional[T]) UnwrapOr(def T) T {
	if o.has {
		return o.value
	}
	return def
}

// UnwrapOrDefault returns the value, or T's zero value when o is empty.
func (o Optional[T]) UnwrapOrDefault() T { return o.value }

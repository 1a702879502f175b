package foryimpl

import "github.com/forygen/forygen/internal/meta"

// Lists of strings and of structs (docs/format.md §8.1), read by one
// generic body instead of a generated method per field: the loops were
// the same in every package, 2–3 KB of generated code each (issue 28).
// The body is what emit wrote: the length, its fast path inlined, the
// elements header, and each element behind the flags the header asks
// for. A struct element's body is read through P's methods, one call an
// element as before; the common header (no null flags, no reference
// flags, this side's schema) takes a loop with one test an element, which
// made the list cells cheaper than the generated loops (instructions.sh
// NumericStructList forygen: benchmarks/PERFORMANCE.md "Generated code
// size, round 5").
//
// Each reuses old's memory when it holds n elements (ReuseSlice); a zero
// length decodes as an empty, non-nil slice, as official Go does. Errors
// are recorded in c, with the failing element's index.

// ReadStringList reads a list of strings into a slice.
func ReadStringList[S ~[]E, E ~string](c *ReadContext, old S) S {
	n := c.ReadLengthFast(1)
	if n < 0 {
		n = c.ReadLength(1)
	}
	s := ReuseSlice(c, old, n)
	if n > 0 {
		hasNull := c.ReadListHeader(meta.TypeString)
		if !c.Failed() {
			for i := range s {
				if hasNull && !c.ReadFlag() {
					clear(s[i : i+1])
					continue
				}
				s[i] = E(c.ReadString())
				if c.Failed() {
					c.TraceIndex(i)
					break
				}
			}
		}
	}
	return s
}

// ReadStructList reads a list of struct values of type t. A header with
// the tracking bit (Python, Java and JavaScript write 09 for a list of
// struct values) puts a reference flag before each element: a
// back-reference copies the object it names, as a value cannot share it.
func ReadStructList[S ~[]T, T any, P StructMessage[T]](c *ReadContext, old S, t *TypeInfo) S {
	n := c.ReadLengthFast(1)
	if n < 0 {
		n = c.ReadLength(1)
	}
	s := ReuseSlice(c, old, n)
	if n > 0 {
		hasNull, tracked, ev := c.ReadStructListHeaderRef(t)
		if c.Failed() {
			return s
		}
		if !hasNull && !tracked && ev == nil {
			// The common case, a loop with one test an element
			// (instructions.sh NumericStructList forygen).
			for i := range s {
				if P(&s[i]).ForyRead(c); c.Failed() {
					c.TraceIndex(i)
					break
				}
			}
		} else {
			for i := range s {
				if tracked {
					if st, id := c.ReadRefFlag(); st == RefBack {
						if p := BackRef[T](c, id); p != nil {
							s[i] = *p
						}
					} else if st == RefFollows {
						SetRef(c, id, &s[i])
						if ev != nil {
							P(&s[i]).ForyReadEvolved(c, ev)
						} else {
							P(&s[i]).ForyRead(c)
						}
					} else {
						var zero T
						s[i] = zero
					}
				} else if hasNull && !c.ReadFlag() {
					clear(s[i : i+1])
					continue
				} else {
					if ev != nil {
						P(&s[i]).ForyReadEvolved(c, ev)
					} else {
						P(&s[i]).ForyRead(c)
					}
				}
				if c.Failed() {
					c.TraceIndex(i)
					break
				}
			}
		}
	}
	return s
}

// ReadStructPtrList reads a list of pointers to structs of type t; a null
// element is nil, and with a tracking header (ReadStructList) a
// back-reference is the object it names.
func ReadStructPtrList[S ~[]*T, T any, P StructMessage[T]](c *ReadContext, old S, t *TypeInfo) S {
	n := c.ReadLengthFast(1)
	if n < 0 {
		n = c.ReadLength(1)
	}
	s := ReuseSlice(c, old, n)
	if n > 0 {
		hasNull, tracked, ev := c.ReadStructListHeaderRef(t)
		if c.Failed() {
			return s
		}
		if !hasNull && !tracked && ev == nil {
			for i := range s {
				p := Alloc[T](c)
				s[i] = p
				if P(p).ForyRead(c); c.Failed() {
					c.TraceIndex(i)
					break
				}
			}
		} else {
			for i := range s {
				if tracked {
					if st, id := c.ReadRefFlag(); st == RefBack {
						s[i] = BackRef[T](c, id)
					} else if st == RefFollows {
						p := Alloc[T](c)
						SetRef(c, id, p)
						if ev != nil {
							P(p).ForyReadEvolved(c, ev)
						} else {
							P(p).ForyRead(c)
						}
						s[i] = p
					} else {
						s[i] = nil
					}
				} else if hasNull && !c.ReadFlag() {
					s[i] = nil
					continue
				} else {
					p := Alloc[T](c)
					if ev != nil {
						P(p).ForyReadEvolved(c, ev)
					} else {
						P(p).ForyRead(c)
					}
					s[i] = p
				}
				if c.Failed() {
					c.TraceIndex(i)
					break
				}
			}
		}
	}
	return s
}

package foryimpl

// AddSetElement adds e, element i of a set being read, to s. The elements
// of a set are distinct: one that repeats an earlier one is malformed
// input, which it records as ErrMalformed (issue 25 item 4: the repeat was
// silently collapsed, so readers in other languages, which keep the count,
// would see another set). A set that claims more elements than it holds
// reads the bytes after it as elements, which then often repeat one, so
// the error is at the set rather than at a later field. Generated code
// calls it for every element of a SET read into a Go set.
func AddSetElement[M ~map[K]struct{}, K comparable](c *ReadContext, s M, e K, i int) {
	n := len(s)
	s[e] = struct{}{}
	if len(s) == n && c.r.Err() == nil {
		c.r.Fail(malformed("set element %d repeats an earlier element", i))
	}
}

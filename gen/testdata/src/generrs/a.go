package generrs

type Page[T any] struct{ Items []T }

//fory:generate id=1
type IntPage = Page[int32]

//fory:generate id=3
type S struct {
	P Page[int64]
}

//fory:generate id=4
type GA[T any] = Page[T]

//fory:enum id=5
type EA = Page[bool]

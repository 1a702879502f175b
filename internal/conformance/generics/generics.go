// Package generics is official Go's messages of instantiated generic
// structs (Page[User], Page[string], Pair[string, int64]), each registered
// on its own as official Go registers an instantiated type, as roots and
// as fields of another struct (docs/format.md §12.8).
package generics

//go:generate go run github.com/forygen/forygen/cmd/forygen

//fory:generate id=710
type User struct {
	Name string
	Age  int32
}

// Page is a generic struct: only its registered instantiations have
// generated code.
type Page[T any] struct {
	Items []T
	Next  string
}

// Pair has two type parameters.
type Pair[K comparable, V any] struct {
	Key K
	Val V
}

// UserPage registers Page[User].
//
//fory:generate id=711
type UserPage = Page[User]

// StringPage registers Page[string] by name.
//
//fory:generate name=demo.StringPage
type StringPage = Page[string]

//fory:generate id=713
type Best = Pair[string, int64]

//fory:generate id=712
type Book struct {
	Users Page[User]
	Tags  *Page[string]
	Best  Pair[string, int64]
	N     int32
}

// Holder holds an any.
//
//fory:generate id=714
type Holder struct{ V any }

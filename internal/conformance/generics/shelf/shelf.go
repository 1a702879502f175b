// Package shelf uses another package's registered instantiations as
// fields: their code is generated in package generics, and reached
// through Page's methods.
package shelf

import "github.com/forygen/forygen/internal/conformance/generics"

//go:generate go run github.com/forygen/forygen/cmd/forygen

//fory:generate id=720
type Shelf struct {
	Pages []generics.Page[generics.User]
	Named map[string]*generics.Page[string]
}

// Package money stands for a third-party package: its Money type cannot be
// annotated, so packages byid and byname write it through an extension
// codec (//fory:ext).
package money

// Money is an amount in minor units of a currency.
type Money struct {
	Units int64
	Cur   string
}

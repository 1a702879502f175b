// Package a registers types that package b, which imports it, registers again.
package a

//fory:generate id=40
type T struct{ V int32 }

//fory:generate name=dup.Named
type Named struct{ V int32 }

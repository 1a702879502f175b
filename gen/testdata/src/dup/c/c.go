// Package c reuses a's registrations without importing it (another schema,
// as the two versions of a schema in an evolution test): an error when both
// are in one run, none when each is generated alone.
package c

//fory:generate id=40
type T struct{ V int64 }

//fory:generate name=dup.Named
type Named struct{ V int64 }

// Package peer is own.Host as a peer in another language declares it: its
// marshaled fields are plain strings and bytes (same registration, same
// field ids).
package peer

//go:generate go run github.com/forygen/forygen/cmd/forygen

//fory:generate id=710
type Host struct {
	Addr   string  `fory:"id=0"`
	Prefix *string `fory:"id=1,nullable"`
	Home   []byte  `fory:"id=2,type=bytes"`
	Big    *string `fory:"id=3,nullable"`
	Name   string  `fory:"id=4"`
	Port   int32   `fory:"id=5"`
	Code   string  `fory:"id=6"`
}

// Package b imports a and reuses its registrations: an error.
package b

import "github.com/forygen/forygen/gen/testdata/src/dup/a"

//fory:generate id=40
type U struct{ T a.T }

//fory:enum name=dup.Named
type Named int32

// Package times holds time.Time (TIMESTAMP), time.Duration (DURATION) and serializer.Date
// (DATE) fields (Times, id 112).
//
// Conformance cases (xlang-fixtures/manifest.json): times.
//
// The declarations are copied verbatim from the cases' go_types (fory.Date becomes
// serializer.Date); the fory:generate and fory:enum directives reproduce the cases'
// registrations. forygen writes types_fory.go next to this file.
package times

//go:generate go run github.com/forygen/forygen/cmd/forygen

import (
	"time"

	"github.com/forygen/forygen/serializer"
)

//fory:generate id=112
type Times struct {
	T  time.Time
	D  time.Duration
	Dt serializer.Date
}

// Package example holds the types of serializer's examples (go doc
// github.com/forygen/forygen/serializer shows them): a struct and an enum
// as a user declares them.
package example

import "time"

//go:generate go run github.com/forygen/forygen/cmd/forygen

// User is registered with Fory user type id 100: peers in Java, Python, Rust,
// C++ or JS register their User class with the same id.
//
//fory:generate id=100
type User struct {
	ID     int64    `fory:"id=0"`
	Name   string   `fory:"id=1"`
	Tags   []string `fory:"id=2"`
	Status Status   `fory:"id=3"`
	Pwd    string   `fory:"-"` // never serialized
}

// Status is a Fory enum, written as its numeric value.
//
//fory:enum id=101
type Status int32

const (
	StatusActive Status = 1
	StatusBanned Status = 2
)

// Event has a time.Time field, written as Fory's TIMESTAMP.
//
//fory:generate id=102
type Event struct {
	At time.Time `fory:"id=0"`
}

// Package own declares a struct whose fields are types the user does not
// own, written through their own marshalers (marshal=text, marshal=binary;
// README "Types you don't own"). Package peer declares the same schema as a
// peer in another language sees it: strings and bytes.
package own

import (
	"errors"
	"math/big"
	"net/netip"
	"net/url"
)

//go:generate go run github.com/forygen/forygen/cmd/forygen

//fory:generate id=710
type Host struct {
	Addr   netip.Addr    `fory:"id=0,marshal=text"`
	Prefix *netip.Prefix `fory:"id=1,nullable,marshal=text"`
	Home   url.URL       `fory:"id=2,marshal=binary"`
	Big    *big.Int      `fory:"id=3,nullable,marshal=text"`
	Name   string        `fory:"id=4"`
	Port   int32         `fory:"id=5"`
	Code   Code          `fory:"id=6,marshal=text"`
}

// Code is a type of the user's own with a text form and a check: its
// marshalers refuse what they cannot represent.
type Code struct{ A, B byte }

var errCode = errors.New("code: want two letters")

// MarshalText writes the two letters; a zero letter is refused.
func (c Code) MarshalText() ([]byte, error) {
	if c.A == 0 || c.B == 0 {
		return nil, errCode
	}
	return []byte{c.A, c.B}, nil
}

// UnmarshalText takes exactly two letters.
func (c *Code) UnmarshalText(p []byte) error {
	if len(p) != 2 {
		return errCode
	}
	c.A, c.B = p[0], p[1]
	return nil
}

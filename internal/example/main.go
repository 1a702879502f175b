// Command example serializes a User in Fory's xlang format, in compatible
// mode (the default) and in same-schema mode, and reads it back.
package main

import (
	"fmt"
	"log"

	"github.com/forygen/forygen/buffer"
	"github.com/forygen/forygen/serializer"
)

func main() {
	in := User{ID: 42, Name: "Ada", Tags: []string{"admin", "ops"}, Status: StatusActive, Pwd: "secret"}

	// Package functions: compatible mode, as official Fory Go's defaults.
	data, err := serializer.Serialize(&in)
	if err != nil {
		log.Fatal(err)
	}
	var out User
	if err := serializer.Deserialize(data, &out); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("compatible  %3d bytes  % x\n", len(data), data)
	fmt.Printf("decoded     %+v\n", out)

	// A Fory with options, writing into a reused buffer (no allocations).
	f := serializer.New(serializer.WithCompatible(false))
	buf := buffer.New(256)
	if err := f.SerializeTo(buf, &in); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("same-schema %3d bytes  % x\n", buf.Len(), buf.Bytes())
	if err := f.Deserialize(buf.Bytes(), &out); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("decoded     %+v\n", out)

	// Decoding errors say what and where, and wrap a sentinel.
	err = f.Deserialize(buf.Bytes()[:buf.Len()-2], &out)
	fmt.Printf("truncated   %v\n", err)
}

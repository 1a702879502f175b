//go:build tools

package grpccodec

// The generator is a tool dependency: importing it here keeps its modules in
// go.sum so that `go generate ./...` (go run
// github.com/forygen/forygen/cmd/forygen) works inside this module.
import _ "github.com/forygen/forygen/cmd/forygen"

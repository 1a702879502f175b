// Package probe holds the one-string message that grpccodec.New decodes once
// to find out whether a *serializer.Fory aliases decoded strings into its
// input (serializer.WithAliasStrings), which the codec must know because
// gRPC reuses a received buffer as soon as Unmarshal returns.
package probe

//go:generate go run github.com/forygen/forygen/cmd/forygen

// Probe is never sent: it is serialized and decoded locally.
//
//fory:generate name=forygen.grpccodec.Probe
type Probe struct {
	S string `fory:"id=1"`
}

//go:build !(386 || amd64 || arm64 || loong64 || ppc64le || wasm)

package buffer

// fastLE is false here: the target is big-endian or does not guarantee cheap
// unaligned accesses, so loads and stores go through encoding/binary.
const fastLE = false

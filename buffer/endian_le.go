//go:build 386 || amd64 || arm64 || loong64 || ppc64le || wasm

package buffer

// fastLE reports that the target is little-endian and loads and stores
// unaligned 16/32/64-bit words in hardware, so a Fory little-endian field is
// one plain memory access at any offset. Little-endian targets that trap or
// emulate unaligned accesses (arm, mipsle, mips64le, riscv64) take the
// portable byte path instead, like every big-endian target.
const fastLE = true

package load

import (
	"fmt"
	"go/ast"
	"go/build/constraint"
	"path/filepath"
	"strings"
)

// buildConstraint returns the `//go:build` line a generated file needs so
// that it is compiled exactly when its source file is: the source's own
// constraint (a //go:build line, or its // +build lines) and the GOOS and
// GOARCH of its file name (x_linux.go), which the generated name
// (x_linux_fory.go) does not carry. It returns "" for an unconstrained
// file.
func buildConstraint(f *ast.File, path string) (string, error) {
	var goBuild, plusBuild constraint.Expr
	for _, g := range f.Comments {
		if g.Pos() >= f.Package {
			break
		}
		for _, c := range g.List {
			switch {
			case constraint.IsGoBuild(c.Text):
				x, err := constraint.Parse(c.Text)
				if err != nil {
					return "", fmt.Errorf("malformed build constraint %q: %v", c.Text, err)
				}
				goBuild = x
			case constraint.IsPlusBuild(c.Text):
				x, err := constraint.Parse(c.Text)
				if err != nil {
					return "", fmt.Errorf("malformed build constraint %q: %v", c.Text, err)
				}
				plusBuild = and(plusBuild, x)
			}
		}
	}
	x := goBuild
	if x == nil {
		x = plusBuild
	}
	for _, tag := range fileNameTags(filepath.Base(path)) {
		x = and(x, &constraint.TagExpr{Tag: tag})
	}
	if x == nil {
		return "", nil
	}
	return "//go:build " + x.String(), nil
}

func and(x, y constraint.Expr) constraint.Expr {
	if x == nil {
		return y
	}
	return &constraint.AndExpr{X: x, Y: y}
}

// fileNameTags returns the GOOS and GOARCH a file name restricts its file
// to, by go/build's rules: name_GOOS, name_GOARCH and name_GOOS_GOARCH, with
// an optional _test before .go, and never the first element of the name.
func fileNameTags(name string) []string {
	name, _, _ = strings.Cut(name, ".")
	i := strings.Index(name, "_")
	if i < 0 {
		return nil
	}
	l := strings.Split(name[i:], "_")
	if n := len(l); n > 0 && l[n-1] == "test" {
		l = l[:n-1]
	}
	n := len(l)
	if n >= 2 && knownOS[l[n-2]] && knownArch[l[n-1]] {
		return []string{l[n-2], l[n-1]}
	}
	if n >= 1 && (knownOS[l[n-1]] || knownArch[l[n-1]]) {
		return []string{l[n-1]}
	}
	return nil
}

// knownOS and knownArch are go/build's lists of GOOS and GOARCH values used
// in file names (internal/syslist).
var knownOS = map[string]bool{
	"aix": true, "android": true, "darwin": true, "dragonfly": true, "freebsd": true, "hurd": true,
	"illumos": true, "ios": true, "js": true, "linux": true, "nacl": true, "netbsd": true,
	"openbsd": true, "plan9": true, "solaris": true, "wasip1": true, "windows": true, "zos": true,
}

var knownArch = map[string]bool{
	"386": true, "amd64": true, "amd64p32": true, "arm": true, "armbe": true, "arm64": true,
	"arm64be": true, "loong64": true, "mips": true, "mipsle": true, "mips64": true, "mips64le": true,
	"mips64p32": true, "mips64p32le": true, "ppc": true, "ppc64": true, "ppc64le": true,
	"riscv": true, "riscv64": true, "s390": true, "s390x": true, "sparc": true, "sparc64": true,
	"wasm": true,
}

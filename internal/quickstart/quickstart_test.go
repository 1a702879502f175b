// Package quickstart checks that README.md's Quick start works verbatim: it
// takes the snippets out of README.md, builds a new module from them that
// gets forygen from a local module proxy holding this checkout, and runs
// README's commands in README's order.
package quickstart

import (
	"archive/zip"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"

	"github.com/forygen/forygen/serializer/foryimpl"
)

const (
	modPath = "github.com/forygen/forygen"
	// version is what the local proxy serves the checkout as.
	version = "v0.1.0-quickstart"
)

// step is one marked snippet of README.md: `<!-- quickstart:KIND ARG -->`
// followed by a fenced code block.
type step struct {
	kind string // shell, file or tools
	arg  string // the file path of file and tools
	body string
}

var marker = regexp.MustCompile("(?m)^<!-- quickstart:(\\w+) ?(\\S*) -->\n```\\w*\n((?s:.*?))```\n")

func readmeSteps(t *testing.T) []step {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var steps []step
	for _, m := range marker.FindAllStringSubmatch(string(raw), -1) {
		steps = append(steps, step{kind: m[1], arg: m[2], body: m[3]})
	}
	kinds := map[string]int{}
	for _, s := range steps {
		kinds[s.kind]++
	}
	if kinds["shell"] < 3 || kinds["file"] < 2 || kinds["tools"] != 1 || kinds["toolsshell"] != 1 {
		t.Fatalf("README.md quickstart snippets: %v; want the go get, go generate and go test commands, the type and test files, tools.go and its commands", kinds)
	}
	return steps
}

// proxy writes a file:// module proxy holding the checkout as version and
// returns GOPROXY for it, falling back to the module cache for the
// dependencies.
func proxy(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "proxy")
	at := filepath.Join(dir, modPath, "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		t.Fatal(err)
	}
	var z bytes.Buffer
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	if err := modzip.CreateFromDir(&z, module.Version{Path: modPath, Version: version}, root); err != nil {
		t.Fatalf("zipping the checkout: %v", err)
	}
	checkZip(t, z.Bytes())
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	info := fmt.Sprintf(`{"Version":%q,"Time":%q}`, version, time.Now().UTC().Format(time.RFC3339))
	for name, data := range map[string][]byte{
		"list": []byte(version + "\n"), version + ".info": []byte(info),
		version + ".mod": gomod, version + ".zip": z.Bytes(),
	} {
		if err := os.WriteFile(filepath.Join(at, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The new module needs no module outside the checkout's build list;
	// make sure the cache has them all (on a fresh machine it holds only
	// what the tests run so far needed).
	run(t, root, nil, "go", "mod", "download", "all")
	cache := strings.TrimSpace(run(t, root, nil, "go", "env", "GOMODCACHE"))
	return "file://" + filepath.ToSlash(dir) + ",file://" + filepath.ToSlash(filepath.Join(cache, "cache", "download"))
}

// checkZip: the module zip holds the runtime and the generator, not the
// nested modules.
func checkZip(t *testing.T, data []byte) {
	t.Helper()
	r, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, f := range r.File {
		have[strings.TrimPrefix(f.Name, modPath+"@"+version+"/")] = true
	}
	for _, want := range []string{"serializer/fory.go", "cmd/forygen/main.go", "go.mod"} {
		if !have[want] {
			t.Fatalf("module zip lacks %s", want)
		}
	}
	if have["benchmarks/go.mod"] || have["grpccodec/go.mod"] {
		t.Fatal("module zip holds a nested module")
	}
}

func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	out, err := command(dir, env, name, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s in %s: %v\n%s", name, strings.Join(args, " "), dir, err, out)
	}
	return string(out)
}

func command(dir string, env []string, name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	return cmd
}

// newModule makes an empty module the way a user has one.
func newModule(t *testing.T, goproxy, goVersion string) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	// A module cache of its own: the shared one would keep the first
	// checkout it extracted for this version and test stale code.
	env := []string{"GOPROXY=" + goproxy, "GOSUMDB=off", "GOFLAGS=-mod=mod -modcacherw", "GOWORK=off", "GOTOOLCHAIN=local",
		"GOMODCACHE=" + filepath.Join(t.TempDir(), "modcache"),
		// forygen's records of up-to-date packages stay out of the user's cache.
		"FORYGEN_CACHE=" + filepath.Join(t.TempDir(), "forygen")}
	run(t, dir, env, "go", "mod", "init", "example.com/quickstart")
	run(t, dir, env, "go", "mod", "edit", "-go="+goVersion)
	return dir, env
}

func writeFile(t *testing.T, dir, path, body string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(path))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// runShell runs each line of a shell snippet as one command.
func runShell(t *testing.T, dir string, env []string, body string) {
	t.Helper()
	for _, line := range strings.Split(body, "\n") {
		if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		run(t, dir, env, f[0], f[1:]...)
	}
}

// TestQuickStart runs README's Quick start with the tool dependency, then
// checks the guard that stops a build when generated code and runtime
// differ.
func TestQuickStart(t *testing.T) {
	steps := readmeSteps(t)
	dir, env := newModule(t, proxy(t), "1.24")
	for _, s := range steps {
		switch s.kind {
		case "shell":
			runShell(t, dir, env, s.body)
		case "file":
			writeFile(t, dir, s.arg, s.body)
		}
	}
	gen := filepath.Join(dir, "users", "user_fory.go")
	src, err := os.ReadFile(gen)
	if err != nil {
		t.Fatalf("go generate wrote no users/user_fory.go: %v", err)
	}
	run(t, dir, env, "go", "tool", "forygen", "-check", "./users")
	// README's "From a Fory IDL schema": go generate ran forygen idl.
	for _, f := range []string{"shop/shop.go", "shop/shop_fory.go"} {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f))); err != nil {
			t.Fatalf("go generate wrote no %s: %v", f, err)
		}
	}
	run(t, filepath.Join(dir, "shop"), env, "go", "tool", "forygen", "idl", "-check", "-o", ".", "shop.fdl")

	// A tag changed without regenerating does not compile either: the
	// guard covers tags, not only fields.
	userGo := filepath.Join(dir, "users", "user.go")
	orig, err := os.ReadFile(userGo)
	if err != nil {
		t.Fatal(err)
	}
	retagged := strings.Replace(string(orig), "`fory:\"id=1\"`", "`fory:\"-\"`", 1)
	if retagged == string(orig) {
		t.Fatal("README's User has no field tagged id=1")
	}
	writeFile(t, dir, "users/user.go", retagged)
	out, err := command(dir, env, "go", "build", "./users").CombinedOutput()
	// The compiler's error itself says what to do (issue 27 item 6).
	if err == nil || !strings.Contains(string(out), "user_fory.go") || !strings.Contains(string(out), "as foryUserChanged_RunGoGenerate value") {
		t.Fatalf("a build after a tag change without go generate: %v\n%s", err, out)
	}
	writeFile(t, dir, "users/user.go", string(orig))

	// Generated code of another version does not compile, and says why.
	cur := fmt.Sprintf("foryimpl.GenVersion%d_RunGoGenerate\n", foryimpl.GenVersion)
	other := fmt.Sprintf("foryimpl.GenVersion%d_RunGoGenerate", foryimpl.GenVersion+1)
	stale := strings.Replace(string(src), cur, other+"\n", 1)
	if stale == string(src) {
		t.Fatal("no version check in the generated file")
	}
	writeFile(t, dir, "users/user_fory.go", stale)
	out, err = command(dir, env, "go", "build", "./users").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "undefined: "+other) {
		t.Fatalf("a build with stale generated code: %v\n%s", err, out)
	}
}

// TestQuickStartTools runs the tools.go form on a Go 1.23 module: the
// type file with README's go run directive, tools.go and its commands, then
// go generate and go test.
func TestQuickStartTools(t *testing.T) {
	steps := readmeSteps(t)
	dir, env := newModule(t, proxy(t), "1.23")
	const goTool, goRun = "//go:generate go tool forygen", "//go:generate go run github.com/forygen/forygen/cmd/forygen"
	for _, s := range steps {
		switch s.kind {
		case "file":
			if !strings.Contains(s.body, goTool) && strings.Contains(s.body, "//go:generate") {
				t.Fatalf("%s: a go:generate line other than %q", s.arg, goTool)
			}
			writeFile(t, dir, s.arg, strings.Replace(s.body, goTool, goRun, 1))
		case "tools":
			writeFile(t, dir, s.arg, s.body)
		case "toolsshell":
			runShell(t, dir, env, s.body)
		}
	}
	run(t, dir, env, "go", "generate", "./...")
	run(t, dir, env, "go", "test", "./...")
}

module github.com/forygen/forygen/benchmarks

go 1.24.0

replace github.com/forygen/forygen => ../

require (
	github.com/forygen/forygen v0.0.0-00010101000000-000000000000
	github.com/planetscale/vtprotobuf v0.6.0
	github.com/stretchr/testify v1.12.1
	github.com/tinylib/msgp v1.6.5
	gonum.org/v1/plot v0.17.0
	google.golang.org/protobuf v1.36.12
)

require github.com/dave/jennifer v1.7.1 // indirect

require (
	codeberg.org/go-fonts/liberation v0.5.0 // indirect
	codeberg.org/go-latex/latex v0.2.0 // indirect
	codeberg.org/go-pdf/fpdf v0.11.1 // indirect
	git.sr.ht/~sbinet/gg v0.7.0 // indirect
	github.com/ajstarks/svgo v0.0.0-20211024235047-1546f124cd8b // indirect
	github.com/golang/freetype v0.0.0-20170609003504-e2365dfdc4a0 // indirect
	github.com/philhofer/fwd v1.2.0 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/image v0.30.0 // indirect
	golang.org/x/mod v0.27.0 // indirect
	golang.org/x/sync v0.16.0 // indirect
	golang.org/x/text v0.28.0 // indirect
	golang.org/x/tools v0.36.0 // indirect
)

tool (
	github.com/forygen/forygen/cmd/forygen
	github.com/tinylib/msgp
)

module github.com/forygen/forygen/benchmarks

go 1.24.0

replace github.com/forygen/forygen => ../

require (
	github.com/forygen/forygen v0.0.0-00010101000000-000000000000
	github.com/planetscale/vtprotobuf v0.6.0
	github.com/tinylib/msgp v1.6.5
	google.golang.org/protobuf v1.36.12
)

require github.com/dave/jennifer v1.7.1 // indirect

require (
	github.com/philhofer/fwd v1.2.0 // indirect
	golang.org/x/mod v0.27.0 // indirect
	golang.org/x/sync v0.16.0 // indirect
	golang.org/x/tools v0.36.0 // indirect
)

tool (
	github.com/forygen/forygen/cmd/forygen
	github.com/tinylib/msgp
)

module kapi-protobuf-fixtures

go 1.24.0

require (
	k8s.io/api v0.33.0
	k8s.io/apimachinery v0.33.0
)

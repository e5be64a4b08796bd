package digest

import "hash"

// Go lets digester live beside Digester; in C the unexported one is
// digest_digester_ (a trailing underscore).
type Digester struct {
	Name string `json:"name"`
}

type digester struct {
	alg  string
	hash hash.Hash
}

// Canonical is named after SHA256, declared below it: another name for
// "sha256", not a duplicate.
type Algorithm string

const (
	Canonical = SHA256
	SHA256    Algorithm = "sha256"
	SHA512    Algorithm = "sha512"
)

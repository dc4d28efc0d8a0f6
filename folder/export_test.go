package folder

import "os"

// SetReadDir makes CheckReplace and Check list folders with readDir until the
// returned function is called: a test interleaves a write with a read.
func SetReadDir(readDir func(string) ([]os.DirEntry, error)) (restore func()) {
	listFolder = readDir
	return func() { listFolder = os.ReadDir }
}

// WithoutExchange makes swaps take the fallback of a system without an
// atomic exchange of folders.
// This lasts until the returned function is called.
// Tests use it to cover both ways of swapping a set in.
func WithoutExchange() (restore func()) {
	exchangeFolders = func(a, b string) error { return errNoExchange }
	return func() { exchangeFolders = exchange }
}

//go:build !linux

package folder

// exchange reports that folders cannot be exchanged atomically here.
// The swap renames the old folder aside instead.
func exchange(a, b string) error { return errNoExchange }

//go:build slow

package testkit

// Slow reports whether the slow tests are asked for.
const Slow = true

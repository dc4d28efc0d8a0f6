package model

import "fmt"

// PartitionKey names the stream-row field that distributes rows over workers.
type PartitionKey uint8

// The partition keys. The lesson partitions by subscriber.
const (
	BySubscriber PartitionKey = iota
	ByRegion
	ByType
)

// PartitionKeys lists every partition key in a fixed order.
var PartitionKeys = []PartitionKey{BySubscriber, ByRegion, ByType}

// String returns the key's name as experiment files and tables spell it.
func (k PartitionKey) String() string {
	switch k {
	case BySubscriber:
		return "subscriber"
	case ByRegion:
		return "region"
	case ByType:
		return "type"
	}
	return fmt.Sprintf("PartitionKey(%d)", uint8(k))
}

// ParsePartitionKey reads a partition key name.
func ParsePartitionKey(s string) (PartitionKey, bool) {
	for _, k := range PartitionKeys {
		if k.String() == s {
			return k, true
		}
	}
	return 0, false
}

// TraceID is the lesson's trace_id, 32-bit FNV-1a over the value's text.
// The lesson hashes code points.
// Every value here is ASCII, so bytes are code points.
func TraceID(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint32(s[i])) * 16777619
	}
	return h
}

// Worker returns the worker, 0..workers-1, that the lesson's distribute assigns
// to a row with the given partition value.
func Worker(value string, workers int) int {
	return int(TraceID(value) % uint32(workers))
}

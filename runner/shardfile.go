package runner

import (
	"bufio"
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"ckptlab/internal/atomicfs"
	"ckptlab/internal/safefile"
	"ckptlab/model"
	"ckptlab/runner/experiment"
)

// shardFormat is the version of the shard file format. A reader refuses
// any other version: a shard file is an intermediate result, made and
// merged by the same release, and is cheap to make again.
const shardFormat = 2

// shardMagic is the first line of every shard file.
const shardMagic = "ckptlab shard file"

// MaxShardBytes returns the most bytes a shard file of the experiment can
// hold: its header, a piece line and the largest encoding of a tally of
// each range of every source, each count taken at its widest varint. A
// reader refuses a larger file without reading it, so that a junk file in
// shards/, or one that reads on forever, costs no more memory than an
// honest shard.
func MaxShardBytes(e *experiment.Experiment) int64 {
	return maxShardBytes(e.SourceList(), e.Partitionings())
}

func maxShardBytes(srcs []model.Source, parts []model.Partitioning) int64 {
	const (
		line   = 256 // a header, piece or tally line, numbers and hash included
		varint = binary.MaxVarintLen64
	)
	n := int64(16 * line) // the header, the signature and the checksum line
	for _, src := range srcs {
		p := int64(src.Periods)
		t := int64(5 + 2*varint)  // magic, version, periods, partitionings
		t += varint * (1 + p + 3) // subscribers, lost rows, drops
		for _, part := range parts {
			w := int64(part.Workers)
			t += 1 + varint           // key, workers
			t += varint * (w + 1)     // subscribers per worker, touched workers
			t += w * varint * (1 + p) // each worker touched: its index, its lost rows
		}
		k := int64(rangeCount(src.Subscribers)) // no piece of src has more ranges
		n += line + k*(line+t+1)
	}
	return n
}

// ShardFile is the content of one shard file, OUT/<name>/shards/I-of-N:
// what one shard of a run counted.
//
// On disk it is a few lines of text, readable with head, then the encoded
// tallies, then an optional signature line and a checksum line:
//
//	ckptlab shard file 2             magic and format version
//	tool: 0.1.0                      the ckptlab version that wrote it
//	experiment: scale                the experiment's name
//	hash: 5d41…                      SHA-256 of the resolved experiment (results.Set.ConfigHash)
//	shard: 2 of 4                    I and N
//	pieces: 1                        how many piece lines follow
//	piece: 0 250000 500000           source index (SourceList order), first subscriber, end
//	tallies: 32                      how many tallies follow
//	tally: 0 250000 257812 412       source index, first subscriber, end, then that many bytes
//	<412 bytes>\n                    of (*model.Tally).MarshalBinary
//	…
//	hmac-sha256: 3a7c…               only if signed: HMAC-SHA256 of every byte before this line
//	sha256: 9f86…                    SHA-256 of every byte before this line
//
// Pieces are the part of the work the shard covers (shardPart). Each piece
// is tallied in the ranges rangesOf cuts it into, in order, a tally per
// range, so that merge can count a few ranges again and compare (Verify).
// The signature is made with the key of Options.ShardKey.
type ShardFile struct {
	Tool    string
	Name    string
	Hash    string
	Shard   Shard
	Pieces  []piece
	Tallies []RangeTally

	mac    []byte // the signature read, nil if unsigned
	signed []byte // the bytes the signature covers
}

// RangeTally is the tally of one range of a shard's pieces: subscribers
// Lo..Hi-1 of the source with index Source, as (*model.Tally).MarshalBinary
// encodes it. It is held encoded, and decoded one range at a time.
type RangeTally struct {
	piece
	Data []byte
}

// Tally decodes the range's tally.
func (t RangeTally) Tally() (*model.Tally, error) {
	var d model.Tally
	if err := d.UnmarshalBinary(t.Data); err != nil {
		return nil, fmt.Errorf("tally of source %d, subscribers %d to %d: %w", t.Source, t.Lo+1, t.Hi, err)
	}
	return &d, nil
}

// Bytes returns the shard file's bytes, signed with key unless key is empty.
func (f *ShardFile) Bytes(key []byte) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %d\n", shardMagic, shardFormat)
	fmt.Fprintf(&b, "tool: %s\nexperiment: %s\nhash: %s\n", f.Tool, f.Name, f.Hash)
	fmt.Fprintf(&b, "shard: %d of %d\npieces: %d\n", f.Shard.I, f.Shard.N, len(f.Pieces))
	for _, p := range f.Pieces {
		fmt.Fprintf(&b, "piece: %d %d %d\n", p.Source, p.Lo, p.Hi)
	}
	fmt.Fprintf(&b, "tallies: %d\n", len(f.Tallies))
	for _, t := range f.Tallies {
		fmt.Fprintf(&b, "tally: %d %d %d %d\n", t.Source, t.Lo, t.Hi, len(t.Data))
		b.Write(t.Data)
		b.WriteByte('\n')
	}
	if len(key) > 0 {
		fmt.Fprintf(&b, "hmac-sha256: %x\n", sign(key, b.Bytes()))
	}
	sum := sha256.Sum256(b.Bytes())
	fmt.Fprintf(&b, "sha256: %x\n", sum)
	return b.Bytes()
}

// sign returns the HMAC-SHA256 of data with key.
func sign(key, data []byte) []byte {
	mac := hmac.New(sha256.New, key)
	mac.Write(data)
	return mac.Sum(nil)
}

// checkSignature reports whether the file is signed with key.
func (f *ShardFile) checkSignature(key []byte) error {
	switch {
	case f.mac == nil:
		return fmt.Errorf("not signed, and %s is set: merge takes only shard files signed with its key (make the shard again with the key set)", experiment.ShardKeyVar)
	case !hmac.Equal(f.mac, sign(key, f.signed)):
		return fmt.Errorf("its signature is not one made with the key of %s: signed with another key, or changed after it was signed", experiment.ShardKeyVar)
	}
	return nil
}

// ReadShardFile reads and decodes a shard file of at most limit bytes
// (MaxShardBytes of its experiment). A file cut short, changed after it was
// written, or of another format version is an error that says so. Only a
// regular file is read, never through a symbolic link, never waiting on a
// FIFO, and never past limit (see package safefile).
func ReadShardFile(path string, limit int64) (*ShardFile, error) {
	data, err := safefile.ReadFile(path, limit)
	var tl *safefile.TooLargeError
	if errors.As(err, &tl) {
		return nil, fmt.Errorf("%s: larger than a shard file of this experiment can be (%d bytes); not a shard file", path, limit)
	}
	if err != nil {
		return nil, err
	}
	f, err := parseShardFile(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// errTruncated reports a file whose checksum line is missing: most often a
// copy cut short.
var errTruncated = errors.New("not a complete shard file (no checksum line at its end: truncated?)")

func parseShardFile(data []byte) (*ShardFile, error) {
	magic := fmt.Sprintf("%s %d\n", shardMagic, shardFormat)
	if !bytes.HasPrefix(data, []byte(magic)) {
		if bytes.HasPrefix(data, []byte(shardMagic+" ")) {
			line, _, _ := bytes.Cut(data, []byte("\n"))
			return nil, fmt.Errorf("shard file format %q is not supported (want %d); make the shards again with this ckptlab",
				strings.TrimPrefix(string(line), shardMagic+" "), shardFormat)
		}
		return nil, errors.New("not a ckptlab shard file")
	}
	// The checksum line is the last line; its digest covers everything
	// before it.
	if !bytes.HasSuffix(data, []byte("\n")) {
		return nil, errTruncated
	}
	end := bytes.LastIndexByte(data[:len(data)-1], '\n') + 1
	want, ok := bytes.CutPrefix(data[end:len(data)-1], []byte("sha256: "))
	if !ok {
		return nil, errTruncated
	}
	sum := sha256.Sum256(data[:end])
	if hex.EncodeToString(sum[:]) != string(want) {
		return nil, errors.New("checksum mismatch: the file was changed or damaged after it was written")
	}

	r := shardReader{data: data[len(magic):end]}
	f := &ShardFile{Tool: r.field("tool"), Name: r.field("experiment"), Hash: r.field("hash")}
	r.scan(r.field("shard"), "%d of %d", &f.Shard.I, &f.Shard.N)
	var pieces, tallies int
	r.scan(r.field("pieces"), "%d", &pieces)
	for range pieces {
		if r.err != nil {
			break
		}
		var p piece
		r.scan(r.field("piece"), "%d %d %d", &p.Source, &p.Lo, &p.Hi)
		f.Pieces = append(f.Pieces, p)
	}
	r.scan(r.field("tallies"), "%d", &tallies)
	for range tallies {
		if r.err != nil {
			break
		}
		var t RangeTally
		var size int
		r.scan(r.field("tally"), "%d %d %d %d", &t.Source, &t.Lo, &t.Hi, &size)
		t.Data = r.bytes(size)
		f.Tallies = append(f.Tallies, t)
	}
	// What follows the tallies is the signature line, if any, and nothing
	// else.
	if r.err == nil && len(r.data) > 0 {
		f.signed = data[:end-len(r.data)]
		mac, err := hex.DecodeString(r.field("hmac-sha256"))
		switch {
		case r.err != nil:
		case err != nil || len(mac) != sha256.Size:
			r.err = errors.New("the signature line holds no HMAC-SHA256")
		case len(r.data) > 0:
			r.err = fmt.Errorf("line %q after the signature", truncate(r.data))
		default:
			f.mac = mac
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	return f, nil
}

// shardReader reads the lines of a shard file, keeping the first error.
type shardReader struct {
	data []byte
	err  error
}

// field reads the line "key: value" and returns value.
func (r *shardReader) field(key string) string {
	if r.err != nil {
		return ""
	}
	line, rest, ok := bytes.Cut(r.data, []byte("\n"))
	value, found := bytes.CutPrefix(line, []byte(key+": "))
	if !ok || !found {
		r.err = fmt.Errorf("line %q: want the field %q", truncate(line), key)
		return ""
	}
	r.data = rest
	return string(value)
}

// scan reads a field's value with fmt.Sscanf, refusing trailing text and
// negative numbers.
func (r *shardReader) scan(value, format string, args ...*int) {
	if r.err != nil {
		return
	}
	ptrs := make([]any, len(args))
	for i, a := range args {
		ptrs[i] = a
	}
	var extra string
	n, _ := fmt.Sscanf(value+" .", format+" %s", append(ptrs, &extra)...)
	ok := n == len(args)+1 && extra == "."
	for _, a := range args {
		ok = ok && *a >= 0
	}
	if !ok {
		r.err = fmt.Errorf("value %q: want %q with numbers >= 0", truncate([]byte(value)), format)
	}
}

// bytes reads n bytes and the line feed after them.
func (r *shardReader) bytes(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n >= len(r.data) || r.data[n] != '\n' {
		r.err = fmt.Errorf("a tally of %d bytes does not fit the file", n)
		return nil
	}
	out := r.data[:n]
	r.data = r.data[n+1:]
	return out
}

func truncate(line []byte) string {
	if len(line) > 60 {
		return string(line[:60]) + "…"
	}
	return string(line)
}

// writeShardFile writes a shard file's bytes to path atomically (see
// atomicfs.WriteFile): a killed shard leaves no file at path, only a
// hidden temporary file that merge ignores.
func writeShardFile(path string, data []byte) error {
	return atomicfs.WriteFile(path, func(w *bufio.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

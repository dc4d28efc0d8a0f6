package runner

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"

	"ckptlab/internal/atomicfs"
	"ckptlab/internal/safefile"
	"ckptlab/model"
	"ckptlab/runner/experiment"
)

// shardFormat is the version of the shard file format. A reader refuses
// any other version: a shard file is an intermediate result, made and
// merged by the same release, and is cheap to make again.
const shardFormat = 1

// shardMagic is the first line of every shard file.
const shardMagic = "ckptlab shard file"

// MaxShardBytes returns the most bytes a shard file of the experiment can
// hold: its header, a piece line and the largest encoding of a tally of
// every source, each count taken at its widest varint. A reader refuses a
// larger file without reading it, so that a junk file in shards/, or one
// that reads on forever, costs no more memory than an honest shard.
func MaxShardBytes(e *experiment.Experiment) int64 {
	return maxShardBytes(e.SourceList(), e.Partitionings())
}

func maxShardBytes(srcs []model.Source, parts []model.Partitioning) int64 {
	const (
		line   = 256 // a header, piece or tally line, numbers and hash included
		varint = binary.MaxVarintLen64
	)
	n := int64(16 * line) // the header and the checksum line
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
		n += 2*line + t + 1
	}
	return n
}

// ShardFile is the content of one shard file, OUT/<name>/shards/I-of-N:
// what one shard of a run counted.
//
// On disk it is a few lines of text, readable with head, then the encoded
// tallies, then a checksum line:
//
//	ckptlab shard file 1             magic and format version
//	tool: 0.1.0                      the ckptlab version that wrote it
//	experiment: scale                the experiment's name
//	hash: 5d41…                      SHA-256 of the resolved experiment (results.Set.ConfigHash)
//	shard: 2 of 4                    I and N
//	pieces: 1                        how many piece lines follow
//	piece: 0 250000 500000           source index (SourceList order), first subscriber, end
//	tally: 0 16170                   source index, then that many bytes of (*model.Tally).MarshalBinary
//	<16170 bytes>\n
//	sha256: 9f86…                    SHA-256 of every byte before this line
//
// Pieces are the part of the work the shard covers (Part);
// there is one tally per source a piece touches, in source order.
type ShardFile struct {
	Tool    string
	Name    string
	Hash    string
	Shard   Shard
	Pieces  []piece
	Tallies []SourceTally
}

// SourceTally is the tally of one source's pieces in a shard.
type SourceTally struct {
	Source int
	Tally  *model.Tally
}

// WriteTo writes the shard file's bytes to w.
func (f *ShardFile) WriteTo(w io.Writer) (int64, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %d\n", shardMagic, shardFormat)
	fmt.Fprintf(&b, "tool: %s\nexperiment: %s\nhash: %s\n", f.Tool, f.Name, f.Hash)
	fmt.Fprintf(&b, "shard: %d of %d\npieces: %d\n", f.Shard.I, f.Shard.N, len(f.Pieces))
	for _, p := range f.Pieces {
		fmt.Fprintf(&b, "piece: %d %d %d\n", p.Source, p.Lo, p.Hi)
	}
	for _, t := range f.Tallies {
		data, err := t.Tally.MarshalBinary()
		if err != nil {
			return 0, err
		}
		fmt.Fprintf(&b, "tally: %d %d\n", t.Source, len(data))
		b.Write(data)
		b.WriteByte('\n')
	}
	sum := sha256.Sum256(b.Bytes())
	fmt.Fprintf(&b, "sha256: %s\n", hex.EncodeToString(sum[:]))
	return b.WriteTo(w)
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
	var pieces int
	r.scan(r.field("pieces"), "%d", &pieces)
	for range pieces {
		if r.err != nil {
			break
		}
		var p piece
		r.scan(r.field("piece"), "%d %d %d", &p.Source, &p.Lo, &p.Hi)
		f.Pieces = append(f.Pieces, p)
	}
	for r.err == nil && len(r.data) > 0 {
		var t SourceTally
		var size int
		r.scan(r.field("tally"), "%d %d", &t.Source, &size)
		data := r.bytes(size)
		if r.err == nil {
			t.Tally = new(model.Tally)
			if err := t.Tally.UnmarshalBinary(data); err != nil {
				r.err = fmt.Errorf("tally of source %d: %w", t.Source, err)
			}
		}
		f.Tallies = append(f.Tallies, t)
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

// writeShardFile writes f to path atomically (see atomicfs.WriteFile): a
// killed shard leaves no file at path, only a hidden temporary file that
// merge ignores.
func writeShardFile(path string, f *ShardFile) error {
	return atomicfs.WriteFile(path, func(w *bufio.Writer) error {
		_, err := f.WriteTo(w)
		return err
	})
}
